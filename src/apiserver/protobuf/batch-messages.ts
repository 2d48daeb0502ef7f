/**
 * Field tables for k8s.io/api/batch/v1/generated.proto: Job (with its pod
 * template, failure and success policies, and status) and CronJob with its
 * JobTemplateSpec, as `kubectl create job|cronjob` send them.
 * Numbers are the proto's and every field of k8s.io/api v0.32 is listed (an unlisted
 * field would be dropped silently); emit rules follow the json tags in types.go.
 */
import { ObjectReference } from "./core-messages.js";
import { LabelSelector, ObjectMeta } from "./meta-messages.js";
import { PodTemplateSpec } from "./pod-spec-messages.js";
import { always, list, listOrNull, message, omitEmpty, pointer } from "./schema.js";

const PodFailurePolicyOnExitCodesRequirement = message("PodFailurePolicyOnExitCodesRequirement", [
  pointer(1, "containerName", "string"),
  always(2, "operator", "string"),
  listOrNull(3, "values", "int32"),
]);

const PodFailurePolicyOnPodConditionsPattern = message("PodFailurePolicyOnPodConditionsPattern", [
  always(1, "type", "string"),
  always(2, "status", "string"),
]);

const PodFailurePolicyRule = message("PodFailurePolicyRule", [
  always(1, "action", "string"),
  pointer(2, "onExitCodes", PodFailurePolicyOnExitCodesRequirement),
  list(3, "onPodConditions", PodFailurePolicyOnPodConditionsPattern),
]);

const PodFailurePolicy = message("PodFailurePolicy", [
  listOrNull(1, "rules", PodFailurePolicyRule),
]);

const SuccessPolicyRule = message("SuccessPolicyRule", [
  pointer(1, "succeededIndexes", "string"),
  pointer(2, "succeededCount", "int32"),
]);

const SuccessPolicy = message("SuccessPolicy", [listOrNull(1, "rules", SuccessPolicyRule)]);

const JobSpec = message("JobSpec", [
  pointer(1, "parallelism", "int32"),
  pointer(2, "completions", "int32"),
  pointer(3, "activeDeadlineSeconds", "int64"),
  pointer(11, "podFailurePolicy", PodFailurePolicy),
  pointer(16, "successPolicy", SuccessPolicy),
  pointer(7, "backoffLimit", "int32"),
  pointer(12, "backoffLimitPerIndex", "int32"),
  pointer(13, "maxFailedIndexes", "int32"),
  pointer(4, "selector", LabelSelector),
  pointer(5, "manualSelector", "bool"),
  always(6, "template", PodTemplateSpec),
  pointer(8, "ttlSecondsAfterFinished", "int32"),
  pointer(9, "completionMode", "string"),
  pointer(10, "suspend", "bool"),
  pointer(14, "podReplacementPolicy", "string"),
  pointer(15, "managedBy", "string"),
]);

const JobCondition = message("JobCondition", [
  always(1, "type", "string"),
  always(2, "status", "string"),
  always(3, "lastProbeTime", "time"),
  always(4, "lastTransitionTime", "time"),
  omitEmpty(5, "reason", "string"),
  omitEmpty(6, "message", "string"),
]);

const UncountedTerminatedPods = message("UncountedTerminatedPods", [
  list(1, "succeeded", "string"),
  list(2, "failed", "string"),
]);

const JobStatus = message("JobStatus", [
  list(1, "conditions", JobCondition),
  pointer(2, "startTime", "time"),
  pointer(3, "completionTime", "time"),
  omitEmpty(4, "active", "int32"),
  omitEmpty(5, "succeeded", "int32"),
  omitEmpty(6, "failed", "int32"),
  pointer(11, "terminating", "int32"),
  omitEmpty(7, "completedIndexes", "string"),
  pointer(10, "failedIndexes", "string"),
  pointer(8, "uncountedTerminatedPods", UncountedTerminatedPods),
  pointer(9, "ready", "int32"),
]);

export const Job = message("Job", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", JobSpec),
  always(3, "status", JobStatus),
]);

const JobTemplateSpec = message("JobTemplateSpec", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", JobSpec),
]);

const CronJobSpec = message("CronJobSpec", [
  always(1, "schedule", "string"),
  pointer(8, "timeZone", "string"),
  pointer(2, "startingDeadlineSeconds", "int64"),
  omitEmpty(3, "concurrencyPolicy", "string"),
  pointer(4, "suspend", "bool"),
  always(5, "jobTemplate", JobTemplateSpec),
  pointer(6, "successfulJobsHistoryLimit", "int32"),
  pointer(7, "failedJobsHistoryLimit", "int32"),
]);

const CronJobStatus = message("CronJobStatus", [
  list(1, "active", ObjectReference),
  pointer(4, "lastScheduleTime", "time"),
  pointer(5, "lastSuccessfulTime", "time"),
]);

export const CronJob = message("CronJob", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", CronJobSpec),
  always(3, "status", CronJobStatus),
]);
