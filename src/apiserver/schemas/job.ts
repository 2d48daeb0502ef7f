/**
 * batch/v1 Job and its parts (JobSpec, JobStatus, JobCondition, JobTemplateSpec),
 * as kube v1.32 publishes them. The pod template's `spec` is the Pod kind's spec
 * schema, so it is exactly as strict as Pods are.
 */
import type { Schema } from "../../api/index.js";
import { bool, int32, int64, object, str, time } from "./builders.js";
import { kindSchema, metadataProperty } from "./kind.js";
import { labelSelector } from "./label-selector.js";
import { podSchema } from "./pod.js";

const open = (description: string): Schema => ({
  type: "object",
  description,
  "x-kubernetes-preserve-unknown-fields": true,
});

const podSpec: Schema = {
  ...(podSchema.properties?.spec ?? open("")),
  description:
    "Specification of the desired behavior of the pod. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
};

export const podTemplateSpec: Schema = object(
  "PodTemplateSpec describes the data a pod should have when created from a template",
  {
    metadata: metadataProperty(
      "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
    ),
    spec: podSpec,
  },
);

const uidSet = (description: string): Schema => ({
  type: "array",
  description,
  items: { type: "string" },
  "x-kubernetes-list-type": "set",
});

export const jobSpec: Schema = object(
  "JobSpec describes how the job execution will look like.",
  {
    activeDeadlineSeconds: int64(
      "Specifies the duration in seconds relative to the startTime that the job may be continuously active before the system tries to terminate it; value must be positive integer. If a Job is suspended (at creation or through an update), this timer will effectively be stopped and reset when the Job is resumed again.",
    ),
    backoffLimit: int32(
      "Specifies the number of retries before marking this job failed. Defaults to 6, unless backoffLimitPerIndex (only Indexed Job) is specified. When backoffLimitPerIndex is specified, backoffLimit defaults to 2147483647.",
    ),
    backoffLimitPerIndex: int32(
      "Specifies the limit for the number of retries within an index before marking this index as failed. Only for Indexed Jobs.",
    ),
    completionMode: str(
      "completionMode specifies how Pod completions are tracked. It can be `NonIndexed` (default) or `Indexed`.",
    ),
    completions: int32(
      "Specifies the desired number of successfully finished pods the job should be run with.  Setting to null means that the success of any pod signals the success of all pods, and allows parallelism to have any positive value.  Setting to 1 means that parallelism is limited to 1 and the success of that pod signals the success of the job. More info: https://kubernetes.io/docs/concepts/workloads/controllers/jobs-run-to-completion/",
    ),
    managedBy: str(
      "ManagedBy field indicates the controller that manages a Job. The k8s Job controller reconciles jobs which don't have this field at all or the field value is the reserved string `kubernetes.io/job-controller`.",
    ),
    manualSelector: bool(
      "manualSelector controls generation of pod labels and pod selectors. Leave `manualSelector` unset unless you are certain what you are doing. When false or unset, the system pick labels unique to this job and appends those labels to the pod template.  When true, the user is responsible for picking unique labels and specifying the selector. More info: https://kubernetes.io/docs/concepts/workloads/controllers/jobs-run-to-completion/#specifying-your-own-pod-selector",
    ),
    maxFailedIndexes: int32(
      "Specifies the maximal number of failed indexes before marking the Job as failed, when backoffLimitPerIndex is set.",
    ),
    parallelism: int32(
      "Specifies the maximum desired number of pods the job should run at any given time. The actual number of pods running in steady state will be less than this number when ((.spec.completions - .status.successful) < .spec.parallelism), i.e. when the work left to do is less than max parallelism. More info: https://kubernetes.io/docs/concepts/workloads/controllers/jobs-run-to-completion/",
    ),
    podFailurePolicy: open(
      "Specifies the policy of handling failed pods. (Accepted; Hearth's Job controller counts every failed pod toward backoffLimit.)",
    ),
    podReplacementPolicy: str(
      "podReplacementPolicy specifies when to create replacement Pods. Possible values are: - TerminatingOrFailed means that we recreate pods when they are terminating (has a metadata.deletionTimestamp) or failed. - Failed means to wait until a previously created Pod is fully terminated (has phase Failed or Succeeded) before creating a replacement Pod.",
    ),
    selector: {
      ...labelSelector,
      description:
        "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
    },
    successPolicy: open(
      "successPolicy specifies the policy when the Job can be declared as succeeded. (Accepted; not acted on by Hearth.)",
    ),
    suspend: bool(
      "suspend specifies whether the Job controller should create Pods or not. If a Job is created with suspend set to true, no Pods are created by the Job controller. If a Job is suspended after creation (i.e. the flag goes from false to true), the Job controller will delete all active Pods associated with this Job. Defaults to false.",
    ),
    template: {
      ...podTemplateSpec,
      description:
        'Describes the pod that will be created when executing a job. The only allowed template.spec.restartPolicy values are "Never" or "OnFailure". More info: https://kubernetes.io/docs/concepts/workloads/controllers/jobs-run-to-completion/',
    },
    ttlSecondsAfterFinished: int32(
      "ttlSecondsAfterFinished limits the lifetime of a Job that has finished execution (either Complete or Failed). If this field is set, ttlSecondsAfterFinished after the Job finishes, it is eligible to be automatically deleted.",
    ),
  },
  ["template"],
);

const jobCondition: Schema = object(
  "JobCondition describes current state of a job.",
  {
    lastProbeTime: time("Last time the condition was checked."),
    lastTransitionTime: time("Last time the condition transit from one status to another."),
    message: str("Human readable message indicating details about last transition."),
    reason: str("(brief) reason for the condition's last transition."),
    status: str("Status of the condition, one of True, False, Unknown."),
    type: str("Type of job condition, Complete or Failed."),
  },
  ["type", "status"],
);

const jobStatus: Schema = object("JobStatus represents the current state of a Job.", {
  active: int32("The number of pending and running pods which are not terminating."),
  completedIndexes: str(
    'completedIndexes holds the completed indexes when .spec.completionMode = "Indexed" in a text format, e.g. "1,3-5,7".',
  ),
  completionTime: time(
    "Represents time when the job was completed. It is not guaranteed to be set in happens-before order across separate operations. It is represented in RFC3339 form and is in UTC. The completion time is set when the job finishes successfully, and only then.",
  ),
  conditions: {
    type: "array",
    description:
      'The latest available observations of an object\'s current state. When a Job fails, one of the conditions will have type "Failed" and status true. When a Job is suspended, one of the conditions will have type "Suspended" and status true; when the Job is resumed, the status of this condition will become false. When a Job is completed, one of the conditions will have type "Complete" and status true.',
    items: jobCondition,
    "x-kubernetes-list-type": "atomic",
    "x-kubernetes-patch-strategy": "merge",
    "x-kubernetes-patch-merge-key": "type",
  },
  failed: int32("The number of pods which reached phase Failed."),
  failedIndexes: str(
    "FailedIndexes holds the failed indexes when spec.backoffLimitPerIndex is set.",
  ),
  ready: int32("The number of active pods which have a Ready condition and are not terminating."),
  startTime: time(
    "Represents time when the job controller started processing a job. When a Job is created in the suspended state, this field is not set until the first time it is resumed. This field is reset every time a Job is resumed from suspension. It is represented in RFC3339 form and is in UTC.",
  ),
  succeeded: int32("The number of pods which reached phase Succeeded."),
  terminating: int32(
    "The number of pods which are terminating (in phase Pending or Running and have a deletionTimestamp).",
  ),
  uncountedTerminatedPods: object(
    "uncountedTerminatedPods holds the UIDs of Pods that have terminated but the job controller hasn't yet accounted for in the status counters.",
    {
      failed: uidSet("failed holds UIDs of failed Pods."),
      succeeded: uidSet("succeeded holds UIDs of succeeded Pods."),
    },
  ),
});

export const jobTemplateSpec: Schema = object(
  "JobTemplateSpec describes the data a Job should have when created from a template",
  {
    metadata: metadataProperty(
      "Standard object's metadata of the jobs created from this template. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
    ),
    spec: {
      ...jobSpec,
      description:
        "Specification of the desired behavior of the job. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
  },
);

export const jobSchema: Schema = kindSchema(
  { group: "batch", version: "v1", kind: "Job" },
  "Job represents the configuration of a single job.",
  {
    spec: {
      ...jobSpec,
      description:
        "Specification of the desired behavior of a job. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
    status: {
      ...jobStatus,
      description:
        "Current status of a job. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
  },
);
