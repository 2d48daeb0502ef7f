/**
 * The batch/v1 kinds Job and CronJob: kube's defaults, the generated selector
 * and pod-template labels of a Job (`batch.kubernetes.io/controller-uid`, …),
 * validation (`batch-validation.ts`) and the columns `kubectl get` prints
 * (`batch-columns.ts`).
 */
import {
  CONTROLLER_UID_LABEL,
  type CronJob,
  JOB_NAME_LABEL,
  type Job,
  type JobSpec,
  type LabelSelector,
  LEGACY_CONTROLLER_UID_LABEL,
  LEGACY_JOB_NAME_LABEL,
} from "../../api/index.js";
import { cronJobSchema, jobSchema } from "../schemas/index.js";
import { CRONJOB_COLUMNS, JOB_COLUMNS } from "./batch-columns.js";
import { validateCronJob, validateJob } from "./batch-validation.js";
import { defaultPod } from "./pod-defaults.js";
import { type ResourceType, STANDARD_VERBS } from "./resource-type.js";

/** SetDefaults_PodSpec on a template (restartPolicy Always is then refused for Jobs). */
function defaultTemplate(spec: JobSpec | undefined): void {
  if (spec?.template?.spec)
    defaultPod({ apiVersion: "v1", kind: "Pod", metadata: {}, spec: spec.template.spec });
}

/** SetDefaults_Job. */
function defaultJob(job: Job): void {
  const spec = job.spec;
  if (!spec) return;
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= "NonIndexed";
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? "Failed" : "TerminatingOrFailed";
  defaultTemplate(spec);
}

/** The job strategy's generateSelector: labels unique to this Job, selected by its uid. */
function generateSelector(job: Job): void {
  const spec = job.spec;
  if (!spec || spec.manualSelector === true) return;
  spec.template ??= {};
  spec.template.metadata ??= {};
  const labels = { ...(spec.template.metadata.labels ?? {}) };
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL])
    labels[key] ??= job.metadata.name ?? "";
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL])
    labels[key] ??= job.metadata.uid ?? "";
  spec.template.metadata.labels = labels;
  const selector: LabelSelector = { ...(spec.selector ?? {}) };
  selector.matchLabels = { ...(selector.matchLabels ?? {}) };
  selector.matchLabels[CONTROLLER_UID_LABEL] ??= job.metadata.uid ?? "";
  spec.selector = selector;
}

export const jobType: ResourceType = {
  group: "batch",
  version: "v1",
  kind: "Job",
  listKind: "JobList",
  plural: "jobs",
  singular: "job",
  namespaced: true,
  shortNames: [],
  categories: ["all"],
  verbs: STANDARD_VERBS,
  status: true,
  nameRule: "dns1123-subdomain",
  strategicMergePatch: true,
  schema: jobSchema,
  columns: JOB_COLUMNS,
  selectableFields: (o) => ({ "status.successful": String((o as Job).status?.succeeded ?? 0) }),
  prepareForCreate(obj) {
    const job = obj as Job;
    defaultJob(job);
    generateSelector(job);
    // SetDefaults_Job: a Job without labels takes its template's (decoded after the selector is made).
    const labels = job.spec?.template?.metadata?.labels;
    if (labels && Object.keys(job.metadata.labels ?? {}).length === 0)
      job.metadata.labels = { ...labels };
  },
  prepareForUpdate(obj) {
    defaultJob(obj as Job);
  },
  validate: validateJob,
};

/** SetDefaults_CronJob (and the pod defaults of its template). */
function defaultCronJob(cj: CronJob): void {
  const spec = cj.spec;
  if (!spec) return;
  spec.concurrencyPolicy ??= "Allow";
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  defaultTemplate(spec.jobTemplate?.spec);
}

export const cronJobType: ResourceType = {
  group: "batch",
  version: "v1",
  kind: "CronJob",
  listKind: "CronJobList",
  plural: "cronjobs",
  singular: "cronjob",
  namespaced: true,
  shortNames: ["cj"],
  categories: ["all"],
  verbs: STANDARD_VERBS,
  status: true,
  nameRule: "dns1123-subdomain",
  strategicMergePatch: true,
  schema: cronJobSchema,
  columns: CRONJOB_COLUMNS,
  prepareForCreate: (obj) => defaultCronJob(obj as CronJob),
  prepareForUpdate: (obj) => defaultCronJob(obj as CronJob),
  validate: validateCronJob,
};

export const BATCH_TYPES: ResourceType[] = [jobType, cronJobType];
