/**
 * apps/v1 controllers: Deployments (rollouts over ReplicaSets) and
 * ReplicaSets (pods from a template), wired by `registerWorkloadControllers`.
 */
export { DeploymentReconciler } from "./deployment-controller.js";
export { ReplicaSetReconciler } from "./replica-set-controller.js";
export {
  registerWorkloadControllers,
  type WorkloadControllerOptions,
} from "./workload-controllers.js";
