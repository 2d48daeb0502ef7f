/**
 * batch/v1 controllers: Jobs (pods to completion, backoff, deadlines, TTL),
 * CronJobs (Jobs on a cron schedule) and the release of orphaned job-tracking
 * finalizers, wired by `startBatchControllers`.
 */
export {
  type BatchControllerOptions,
  type BatchControllers,
  type ControllerHandle,
  registerBatchControllers,
  startBatchControllers,
} from "./batch-controllers.js";
export { CronJobReconciler } from "./cronjob-controller.js";
export { type JobControllerOptions, JobReconciler } from "./job-controller.js";
export { OrphanPodReconciler } from "./orphan-pods.js";
