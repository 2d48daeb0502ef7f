/**
 * The batch/v1 kinds as the apiserver serves them: Job defaults and the
 * generated selector, kube's 422s for Jobs and CronJobs (restartPolicy, the
 * 52-character CronJob name, a bad schedule or time zone, immutable fields),
 * and the table columns kubectl prints.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Job } from "../../src/api/batch.js";
import { cronJobManifest, jobManifest } from "../support/batch.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
type Failure = { status: number; body: { message: string; reason: string } };

describe("batch/v1 API", () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess();
  });
  after(async () => {
    await s?.stop();
  });

  const post = (plural: string, obj: unknown) =>
    s.request(
      "POST",
      `/apis/batch/v1/namespaces/default/${plural}`,
      JSON.stringify(obj),
    ) as Promise<Failure & { body: Job }>;

  it("defaults a Job and generates its selector and template labels", async () => {
    const r = await post("jobs", jobManifest("defaults"));
    assert.equal(r.status, 201);
    const job = r.body;
    const uid = job.metadata.uid!;
    assert.equal(job.spec.completions, 1);
    assert.equal(job.spec.parallelism, 1);
    assert.equal(job.spec.backoffLimit, 6);
    assert.equal(job.spec.completionMode, "NonIndexed");
    assert.equal(job.spec.suspend, false);
    assert.equal(job.spec.podReplacementPolicy, "TerminatingOrFailed");
    assert.deepEqual(job.spec.selector, {
      matchLabels: { "batch.kubernetes.io/controller-uid": uid },
    });
    const labels = {
      "batch.kubernetes.io/controller-uid": uid,
      "batch.kubernetes.io/job-name": "defaults",
      "controller-uid": uid,
      "job-name": "defaults",
    };
    assert.deepEqual(job.spec.template.metadata?.labels, labels);
    assert.deepEqual(job.metadata.labels, labels);
    assert.equal(job.status, undefined);
  });

  it("refuses a template restartPolicy other than Never or OnFailure", async () => {
    const missing = jobManifest("no-policy");
    delete missing.spec.template.spec!.restartPolicy;
    let r = await post("jobs", missing);
    assert.equal(r.status, 422);
    assert.equal(
      r.body.message,
      'Job.batch "no-policy" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    );
    const always = jobManifest("always");
    always.spec.template.spec!.restartPolicy = "Always";
    r = await post("jobs", always);
    assert.equal(r.status, 422);
    assert.match(r.body.message, /restartPolicy: Required value/);
    // An unknown policy: kube decodes built-ins without enum checks, so both the pod
    // template's and the Job's validation name it in one 422.
    const odd = jobManifest("odd");
    odd.spec.template.spec!.restartPolicy = "Sometimes";
    r = await post("jobs", odd);
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.reason, "Invalid");
    // The pod's list comes from the schema's (sorted) enum; kube's validation lists
    // "Always", "OnFailure", "Never".
    assert.equal(
      r.body.message,
      'Job.batch "odd" is invalid: [spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure", spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"]',
    );
  });

  it("refuses negative counts and Indexed without completions", async () => {
    const r = await post(
      "jobs",
      jobManifest("negative", { backoffLimit: -1, parallelism: 2, completionMode: "Indexed" }),
    );
    assert.equal(r.status, 422);
    assert.match(
      r.body.message,
      /spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0/,
    );
    assert.match(
      r.body.message,
      /spec.completions: Required value: when completion mode is Indexed/,
    );
  });

  it("keeps the template, selector and completions of a Job immutable", async () => {
    await post("jobs", jobManifest("fixed"));
    const r = await s.request(
      "PATCH",
      "/apis/batch/v1/namespaces/default/jobs/fixed",
      JSON.stringify({
        spec: { completions: 3, template: { spec: { restartPolicy: "OnFailure" } } },
      }),
      { "Content-Type": "application/merge-patch+json" },
    );
    assert.equal(r.status, 422);
    const msg = (r.body as Failure["body"]).message;
    assert.match(msg, /spec.completions: Invalid value: 3: field is immutable/);
    assert.match(msg, /spec.template: Invalid value: .*: field is immutable/);
    const ok = await s.request(
      "PATCH",
      "/apis/batch/v1/namespaces/default/jobs/fixed",
      JSON.stringify({ spec: { backoffLimit: 2, activeDeadlineSeconds: 60 } }),
      { "Content-Type": "application/merge-patch+json" },
    );
    assert.equal(ok.status, 200);
  });

  it("refuses a CronJob name longer than 52 characters, with kube's message", async () => {
    const name = "a".repeat(53);
    const r = await post("cronjobs", cronJobManifest(name));
    assert.equal(r.status, 422);
    assert.equal(
      r.body.message,
      `CronJob.batch "${name}" is invalid: metadata.name: Invalid value: "${name}": must be no more than 52 characters`,
    );
    assert.equal((await post("cronjobs", cronJobManifest("b".repeat(52)))).status, 201);
  });

  it("refuses bad schedules, time zones and policies, with kube's messages", async () => {
    const cases: [Parameters<typeof cronJobManifest>[1], string][] = [
      [
        { schedule: "61 * * * *" },
        'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
      ],
      [
        { schedule: "* * *" },
        'spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]',
      ],
      [
        { schedule: "@fortnightly" },
        'spec.schedule: Invalid value: "@fortnightly": unrecognized descriptor: @fortnightly',
      ],
      [
        { schedule: "TZ=UTC * * * * *" },
        'spec.schedule: Invalid value: "TZ=UTC * * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ],
      [
        { timeZone: "Mars/Olympus" },
        'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
      ],
      [
        { concurrencyPolicy: "Sometimes" as "Allow" },
        'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      ],
    ];
    for (const [spec, message] of cases) {
      const r = await post("cronjobs", cronJobManifest("bad", spec));
      assert.equal(r.status, 422, message);
      assert.equal(r.body.message, `CronJob.batch "bad" is invalid: ${message}`);
    }
    const selector = cronJobManifest("bad");
    selector.spec.jobTemplate.spec.selector = { matchLabels: { a: "b" } };
    const r = await post("cronjobs", selector);
    assert.match(
      r.body.message,
      /spec.jobTemplate.spec.selector: Invalid value: .*: `selector` will be auto-generated/,
    );
  });

  it("defaults a CronJob and prints kubectl's columns", async () => {
    const r = await post(
      "cronjobs",
      cronJobManifest("nightly", { schedule: "0 3 * * *", timeZone: "Europe/Berlin" }),
    );
    assert.equal(r.status, 201);
    const spec = (r.body as unknown as { spec: Record<string, unknown> }).spec;
    assert.equal(spec.concurrencyPolicy, "Allow");
    assert.equal(spec.suspend, false);
    assert.equal(spec.successfulJobsHistoryLimit, 3);
    assert.equal(spec.failedJobsHistoryLimit, 1);
    const table = await s.request(
      "GET",
      "/apis/batch/v1/namespaces/default/cronjobs/nightly",
      undefined,
      { Accept: TABLE },
    );
    const t = table.body as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: unknown[] }[];
    };
    assert.deepEqual(
      t.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name),
      ["Name", "Schedule", "Timezone", "Suspend", "Active", "Last Schedule", "Age"],
    );
    assert.deepEqual(t.rows[0]!.cells.slice(0, 6), [
      "nightly",
      "0 3 * * *",
      "Europe/Berlin",
      "False",
      0,
      "<none>",
    ]);
    const jobs = await s.request(
      "GET",
      "/apis/batch/v1/namespaces/default/jobs/defaults",
      undefined,
      { Accept: TABLE },
    );
    const jt = jobs.body as typeof t;
    assert.deepEqual(
      jt.columnDefinitions.map((c) => c.name),
      ["Name", "Status", "Completions", "Duration", "Age", "Containers", "Images", "Selector"],
    );
    assert.deepEqual(jt.rows[0]!.cells.slice(0, 4), ["defaults", "Running", "0/1", ""]);
  });
});
