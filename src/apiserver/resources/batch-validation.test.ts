import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CronJob, Job } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { validateCronJob, validateJob } from "./batch-validation.js";

const container = { name: "c", image: "busybox" };

function job(labels: Record<string, string>, extra: Partial<Job["spec"]> = {}): Job {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "j", uid: "u" },
    spec: {
      selector: { matchLabels: { "batch.kubernetes.io/controller-uid": "u" } },
      template: { metadata: { labels }, spec: { restartPolicy: "Never", containers: [container] } },
      ...extra,
    },
  };
}

const generated = {
  "batch.kubernetes.io/controller-uid": "u",
  "batch.kubernetes.io/job-name": "j",
  "controller-uid": "u",
  "job-name": "j",
};

function cronJob(spec: Partial<CronJob["spec"]> = {}, name = "c"): CronJob {
  return {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name },
    spec: {
      schedule: "*/5 * * * *",
      concurrencyPolicy: "Allow",
      jobTemplate: {
        spec: { template: { spec: { restartPolicy: "OnFailure", containers: [container] } } },
      },
      ...spec,
    },
  };
}

const messages = (errs: ReturnType<typeof validateJob>) => errs.map(fieldErrorMessage);

describe("batch validation", () => {
  it("accepts a Job with its generated labels and selector", () => {
    assert.deepEqual(messages(validateJob(job(generated), undefined)), []);
  });

  it("refuses template labels that contradict the generated ones", () => {
    const errs = messages(validateJob(job({ ...generated, "job-name": "other" }), undefined));
    assert.deepEqual(errs, [
      "spec.template.metadata.labels[job-name]: Invalid value: \"object\": must be 'j'",
    ]);
  });

  it("lets a manual selector choose the labels, as long as it matches the template", () => {
    const manual = job(
      { app: "x" },
      { manualSelector: true, selector: { matchLabels: { app: "x" } } },
    );
    assert.deepEqual(messages(validateJob(manual, undefined)), []);
    manual.spec.selector = { matchLabels: { app: "y" } };
    assert.match(
      messages(validateJob(manual, undefined)).join(),
      /`selector` does not match template `labels`/,
    );
  });

  it("allows Indexed completions to change with parallelism, nothing else", () => {
    const old = job(generated, { completionMode: "Indexed", completions: 2, parallelism: 2 });
    const next = job(generated, { completionMode: "Indexed", completions: 3, parallelism: 3 });
    assert.deepEqual(messages(validateJob(next, old)), []);
    const lone = job(generated, { completionMode: "Indexed", completions: 3, parallelism: 2 });
    assert.match(
      messages(validateJob(lone, old)).join(),
      /spec.completions: Invalid value: 3: field is immutable/,
    );
  });

  it("enforces the 52-character CronJob name only on create", () => {
    const long = cronJob({}, "x".repeat(53));
    assert.equal(messages(validateCronJob(long, undefined)).length, 1);
    assert.deepEqual(messages(validateCronJob(long, long)), []);
  });

  it("allows TZ= in a schedule only where it was already", () => {
    const old = cronJob({ schedule: "TZ=UTC 0 * * * *" });
    assert.deepEqual(messages(validateCronJob(cronJob({ schedule: "TZ=UTC 5 * * * *" }), old)), []);
    assert.match(
      messages(
        validateCronJob(cronJob({ schedule: "TZ=UTC 5 * * * *", timeZone: "UTC" }), old),
      ).join(),
      /cannot use both timeZone field and TZ or CRON_TZ in schedule/,
    );
  });

  it("refuses Local and malformed time zones", () => {
    assert.match(
      messages(validateCronJob(cronJob({ timeZone: "Local" }), undefined)).join(),
      /timeZone must be an explicit time zone/,
    );
    assert.deepEqual(messages(validateCronJob(cronJob({ timeZone: "../etc" }), undefined)), [
      'spec.timeZone: Invalid value: "../etc": unknown time zone ../etc',
    ]);
    assert.deepEqual(
      messages(validateCronJob(cronJob({ timeZone: "America/New_York" }), undefined)),
      [],
    );
  });

  it("refuses a manual selector in a job template", () => {
    const cj = cronJob();
    cj.spec.jobTemplate.spec.manualSelector = true;
    assert.deepEqual(messages(validateCronJob(cj, undefined)), [
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ]);
  });
});
