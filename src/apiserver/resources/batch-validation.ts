/**
 * kube's batch validation (pkg/apis/batch/validation) for Job and CronJob, with
 * its field paths and messages: non-negative counts, the generated selector and
 * template labels, `restartPolicy` Never or OnFailure, Indexed needs
 * completions, immutable template/selector/completions, the 52-character
 * CronJob name, a parseable schedule, a known time zone and a concurrency policy.
 */

import {
  CONTROLLER_UID_LABEL,
  CRONJOB_NAME_MAX,
  type CronJob,
  CronSyntaxError,
  dns1123Label,
  type FieldError,
  formatValue,
  invalidValue,
  isObject,
  JOB_NAME_LABEL,
  type Job,
  type JobSpec,
  type KubeObject,
  LEGACY_CONTROLLER_UID_LABEL,
  LEGACY_JOB_NAME_LABEL,
  labelSelectorFromObject,
  parseSchedule,
  requiredValue,
  timeZoneError,
} from "../../api/index.js";
import { podTemplateErrors } from "./pod-template-validation.js";

export function notSupported(field: string, value: unknown, supported: string[]): FieldError {
  return {
    reason: "FieldValueNotSupported",
    field,
    detail: `Unsupported value: ${formatValue(value)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(", ")}`,
  };
}

/** ValidateNonnegativeField. */
export function nonNegative(field: string, value: number | undefined): FieldError[] {
  return value !== undefined && value < 0
    ? [invalidValue(field, value, "must be greater than or equal to 0")]
    : [];
}

function selectorMatches(spec: JobSpec, labels: Record<string, string>): boolean {
  try {
    return labelSelectorFromObject(spec.selector ?? {}).matches((k) => labels[k]);
  } catch {
    return true; // a malformed selector is reported by the schema
  }
}

/** validateJobSpec: what a Job and a CronJob's job template share. */
function jobSpecErrors(spec: JobSpec, at: string): FieldError[] {
  const errors = [
    ...nonNegative(`${at}.parallelism`, spec.parallelism),
    ...nonNegative(`${at}.completions`, spec.completions),
    ...nonNegative(`${at}.activeDeadlineSeconds`, spec.activeDeadlineSeconds),
    ...nonNegative(`${at}.backoffLimit`, spec.backoffLimit),
    ...nonNegative(`${at}.ttlSecondsAfterFinished`, spec.ttlSecondsAfterFinished),
  ];
  const mode = spec.completionMode;
  if (mode !== undefined && mode !== "NonIndexed" && mode !== "Indexed")
    errors.push(notSupported(`${at}.completionMode`, mode, ["NonIndexed", "Indexed"]));
  if (mode === "Indexed" && spec.completions === undefined)
    errors.push(requiredValue(`${at}.completions`, "when completion mode is Indexed"));
  const policy = spec.podReplacementPolicy;
  if (policy !== undefined && policy !== "Failed" && policy !== "TerminatingOrFailed")
    errors.push(
      notSupported(`${at}.podReplacementPolicy`, policy, ["Failed", "TerminatingOrFailed"]),
    );
  const tmpl = `${at}.template`;
  errors.push(...podTemplateErrors(spec.template, tmpl));
  const restart = spec.template?.spec?.restartPolicy;
  if (restart === undefined || restart === "" || restart === "Always")
    errors.push(requiredValue(`${tmpl}.spec.restartPolicy`, 'valid values: "OnFailure", "Never"'));
  else if (restart !== "OnFailure" && restart !== "Never")
    errors.push(notSupported(`${tmpl}.spec.restartPolicy`, restart, ["OnFailure", "Never"]));
  return errors;
}

/** The generated selector's labels must be on the template (unless manualSelector). */
function generatedSelectorErrors(job: Job): FieldError[] {
  const spec = job.spec;
  if (spec.manualSelector === true || spec.selector === undefined) return [];
  const labels = spec.template?.metadata?.labels ?? {};
  const errors: FieldError[] = [];
  const expected: Record<string, string> = {
    [LEGACY_CONTROLLER_UID_LABEL]: job.metadata.uid ?? "",
    [LEGACY_JOB_NAME_LABEL]: job.metadata.name ?? "",
    [CONTROLLER_UID_LABEL]: job.metadata.uid ?? "",
    [JOB_NAME_LABEL]: job.metadata.name ?? "",
  };
  for (const [key, value] of Object.entries(expected)) {
    const field = `spec.template.metadata.labels[${key}]`;
    if (!(key in labels)) errors.push(requiredValue(field, value));
    else if (labels[key] !== value) errors.push(invalidValue(field, labels, `must be '${value}'`));
  }
  if (!selectorMatches(spec, expected))
    errors.push(invalidValue("spec.selector", spec.selector, "`selector` not auto-generated"));
  return errors;
}

const immutable = (field: string, value: unknown) =>
  invalidValue(field, value, "field is immutable");
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function validateJob(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  // A nulled spec is a zero JobSpec, as kube decodes it (see validateCronJob).
  const job = (isObject(obj.spec) ? obj : { ...obj, spec: {} }) as Job;
  const spec = job.spec;
  const errors = [...generatedSelectorErrors(job), ...jobSpecErrors(spec, "spec")];
  if (spec.selector === undefined) errors.push(requiredValue("spec.selector"));
  else if (!selectorMatches(spec, spec.template?.metadata?.labels ?? {}))
    errors.push(
      invalidValue(
        "spec.template.metadata.labels",
        spec.template?.metadata?.labels,
        "`selector` does not match template `labels`",
      ),
    );
  if (spec.completionMode === "Indexed" && (spec.completions ?? 0) > 0) {
    const host = `${job.metadata.name}-${(spec.completions ?? 1) - 1}`;
    if (dns1123Label(host).length > 0)
      errors.push(
        invalidValue(
          "metadata.name",
          job.metadata.name,
          `will not able to create pod with invalid DNS label: ${host}`,
        ),
      );
  }
  if (!old) return errors;
  const was = (old as Job).spec;
  const elastic =
    spec.completionMode === "Indexed" &&
    spec.completions !== undefined &&
    spec.completions === spec.parallelism;
  if (!same(spec.completions, was.completions) && !elastic)
    errors.push(immutable("spec.completions", spec.completions));
  if (!same(spec.selector, was.selector)) errors.push(immutable("spec.selector", spec.selector));
  if (!same(spec.template, was.template)) errors.push(immutable("spec.template", spec.template));
  if (!same(spec.completionMode, was.completionMode))
    errors.push(immutable("spec.completionMode", spec.completionMode));
  return errors;
}

function scheduleErrors(cj: CronJob, old: CronJob | undefined): FieldError[] {
  const schedule = cj.spec.schedule;
  if (!schedule) return [requiredValue("spec.schedule")];
  const errors: FieldError[] = [];
  try {
    parseSchedule(schedule);
  } catch (e) {
    if (!(e instanceof CronSyntaxError)) throw e;
    errors.push(invalidValue("spec.schedule", schedule, e.message));
  }
  const tzAllowed = old?.spec.schedule.includes("TZ") ?? false;
  if (tzAllowed && schedule.includes("TZ") && cj.spec.timeZone !== undefined)
    errors.push(
      invalidValue(
        "spec.schedule",
        schedule,
        "cannot use both timeZone field and TZ or CRON_TZ in schedule",
      ),
    );
  else if (!tzAllowed && schedule.includes("TZ"))
    errors.push(
      invalidValue(
        "spec.schedule",
        schedule,
        "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
      ),
    );
  return errors;
}

const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

function timeZoneErrors(zone: string | undefined): FieldError[] {
  if (zone === undefined) return [];
  const field = "spec.timeZone";
  if (zone === "") return [invalidValue(field, zone, "timeZone must be nil or non-empty string")];
  for (const part of zone.split("/"))
    if (part === "." || part === ".." || part.startsWith("-") || !TIME_ZONE_PART.test(part))
      return [invalidValue(field, zone, `unknown time zone ${zone}`)];
  const errors: FieldError[] = [];
  if (zone.toLowerCase() === "local")
    errors.push(
      invalidValue(
        field,
        zone,
        "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
      ),
    );
  const bad = timeZoneError(zone);
  if (bad) errors.push(invalidValue(field, zone, bad));
  return errors;
}

export function validateCronJob(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  // A patch may null the spec (`{"spec":null}`): kube decodes that to a zero
  // CronJobSpec, so every required field of it is reported, never a crash.
  const cj = (isObject(obj.spec) ? obj : { ...obj, spec: {} }) as CronJob;
  const was = old as CronJob | undefined;
  const spec = cj.spec;
  const errors = [
    ...scheduleErrors(cj, was),
    ...nonNegative("spec.startingDeadlineSeconds", spec.startingDeadlineSeconds),
  ];
  if (!was || was.spec.timeZone !== spec.timeZone) errors.push(...timeZoneErrors(spec.timeZone));
  const policy = spec.concurrencyPolicy;
  if (policy === undefined || policy === ("" as string))
    errors.push(requiredValue("spec.concurrencyPolicy"));
  else if (!["Allow", "Forbid", "Replace"].includes(policy))
    errors.push(notSupported("spec.concurrencyPolicy", policy, ["Allow", "Forbid", "Replace"]));
  const template = spec.jobTemplate?.spec;
  if (template) {
    errors.push(...jobSpecErrors(template, "spec.jobTemplate.spec"));
    if (template.selector !== undefined)
      errors.push(
        invalidValue(
          "spec.jobTemplate.spec.selector",
          template.selector,
          "`selector` will be auto-generated",
        ),
      );
    if (template.manualSelector === true)
      errors.push(notSupported("spec.jobTemplate.spec.manualSelector", true, ["nil", "false"]));
  }
  errors.push(
    ...nonNegative("spec.successfulJobsHistoryLimit", spec.successfulJobsHistoryLimit),
    ...nonNegative("spec.failedJobsHistoryLimit", spec.failedJobsHistoryLimit),
  );
  // Only on create: old CronJobs with longer names stay updatable and deletable.
  const name = cj.metadata.name ?? "";
  if (!was && name.length > CRONJOB_NAME_MAX)
    errors.push(
      invalidValue("metadata.name", name, `must be no more than ${CRONJOB_NAME_MAX} characters`),
    );
  return errors;
}
