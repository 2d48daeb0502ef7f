/**
 * batch/v1 Job and CronJob as code reads them, and the label, annotation and
 * finalizer names that the apiserver (selector generation) and the controllers
 * (pod creation, finished-pod tracking) must agree on. Field names and
 * condition types are Kubernetes' (k8s.io/api/batch/v1).
 */
import type { KubeObject, ObjectMeta } from "./types.js";

/** Labels the apiserver puts on a Job's pod template; the selector uses the uid one. */
export const JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
export const CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid";
export const LEGACY_JOB_NAME_LABEL = "job-name";
export const LEGACY_CONTROLLER_UID_LABEL = "controller-uid";
/** Keeps a finished pod until the Job controller has counted it. */
export const JOB_TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";
/** Indexed Jobs: the pod's completion index (annotation and label). */
export const JOB_COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
/** Jobs made by a CronJob: the scheduled time, RFC 3339 in the CronJob's zone. */
export const CRONJOB_SCHEDULED_TIMESTAMP = "batch.kubernetes.io/cronjob-scheduled-timestamp";
/** The longest CronJob name: a Job name (63) less the `-<minutes>` suffix (11). */
export const CRONJOB_NAME_MAX = 52;

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: { restartPolicy?: string; [key: string]: unknown };
}

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  selector?: LabelSelector;
  manualSelector?: boolean;
  template: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: "NonIndexed" | "Indexed";
  suspend?: boolean;
  podReplacementPolicy?: "TerminatingOrFailed" | "Failed";
  [key: string]: unknown;
}

export type JobConditionType =
  | "Suspended"
  | "Complete"
  | "Failed"
  | "FailureTarget"
  | "SuccessCriteriaMet";

export interface JobCondition {
  type: JobConditionType;
  status: "True" | "False" | "Unknown";
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  ready?: number;
  completedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
}

export interface Job extends KubeObject {
  spec: JobSpec;
  status?: JobStatus;
}

export interface CronJobSpec {
  schedule: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: "Allow" | "Forbid" | "Replace";
  suspend?: boolean;
  jobTemplate: { metadata?: ObjectMeta; spec: JobSpec };
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

export interface CronJobStatus {
  active?: ObjectReference[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export interface CronJob extends KubeObject {
  spec: CronJobSpec;
  status?: CronJobStatus;
}

/** The condition of that type when its status is True. */
export function trueCondition(
  status: JobStatus | undefined,
  type: JobConditionType,
): JobCondition | undefined {
  return status?.conditions?.find((c) => c.type === type && c.status === "True");
}

/** `Complete` or `Failed` when the Job has finished, else undefined. */
export function jobFinishedAs(job: { status?: JobStatus }): "Complete" | "Failed" | undefined {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === "Complete" || c.type === "Failed") && c.status === "True") return c.type;
  }
  return undefined;
}
