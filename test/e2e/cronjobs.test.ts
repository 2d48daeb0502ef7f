/**
 * The CronJob controller over HTTP against an in-process apiserver, on a clock
 * the test moves forward (then pokes the CronJob's key, as the controller's own
 * requeue would when that time comes): Jobs at scheduled times, Allow, Forbid
 * and Replace, history limits, startingDeadlineSeconds, many missed runs, suspend.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { CronJob, Job } from "../../src/api/batch.js";
import { hasCode } from "../../src/api/errors.js";
import {
  activePods,
  type BatchEnv,
  cronJobManifest,
  eventsFor,
  jobCondition,
  setPhase,
  startBatchEnv,
} from "../support/batch.js";
import { waitFor } from "../support/hearth-process.js";

const MINUTE = 60_000;

describe("CronJob controller", () => {
  let env: BatchEnv;
  before(async () => {
    env = await startBatchEnv();
  });
  after(async () => {
    await env?.stop();
  });

  const getCronJob = (name: string) =>
    env.client.get<CronJob>({
      apiVersion: "batch/v1",
      kind: "CronJob",
      name,
      namespace: "default",
    });
  const jobsOf = async (cj: CronJob) =>
    (
      await env.client.list<Job>({ apiVersion: "batch/v1", kind: "Job" }, { namespace: "default" })
    ).items
      .filter((j) => j.metadata.ownerReferences?.[0]?.uid === cj.metadata.uid)
      .map((j) => j.metadata.name!)
      .sort();
  /** Moves the controllers' clock to `ms` and wakes the CronJob. */
  const at = (cj: CronJob, ms: number) => {
    env.clock.skewMs = ms - Date.now();
    env.controllers.cronJobs.enqueue(`default/${cj.metadata.name}`);
  };
  /** The first whole minute after the CronJob was created. */
  const firstRun = (cj: CronJob) =>
    Math.floor(Date.parse(cj.metadata.creationTimestamp!) / MINUTE) * MINUTE + MINUTE;
  const jobFor = (cj: CronJob, scheduled: number) => `${cj.metadata.name}-${scheduled / MINUTE}`;
  const waitJobs = (cj: CronJob, names: string[]) =>
    waitFor(`jobs ${names.join(",")}`, async () => {
      const now = await jobsOf(cj);
      return JSON.stringify(now) === JSON.stringify([...names].sort()) ? now : undefined;
    });
  const complete = async (job: string) => {
    const [pod] = await activePods(env.client, job, 1);
    await setPhase(env.client, pod!, "Succeeded");
    return jobCondition(env.client, job, "Complete");
  };
  const gone = (job: string) =>
    waitFor(`job ${job} deleted`, () =>
      env.client.get({ apiVersion: "batch/v1", kind: "Job", name: job, namespace: "default" }).then(
        () => false,
        (e: unknown) => hasCode(e, 404),
      ),
    );

  it("creates the Job of each scheduled time, named by its minute", async () => {
    const cj = await env.client.create(cronJobManifest("every"));
    const t1 = firstRun(cj);
    at(cj, t1 - 5_000);
    env.controllers.cronJobs.enqueue("default/every");
    assert.deepEqual(await jobsOf(cj), []);
    at(cj, t1 + 1_000);
    await waitJobs(cj, [jobFor(cj, t1)]);
    const job = await env.client.get<Job>({
      apiVersion: "batch/v1",
      kind: "Job",
      name: jobFor(cj, t1),
      namespace: "default",
    });
    assert.deepEqual(job.metadata.ownerReferences, [
      {
        apiVersion: "batch/v1",
        kind: "CronJob",
        name: "every",
        uid: cj.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.equal(
      job.metadata.annotations?.["batch.kubernetes.io/cronjob-scheduled-timestamp"],
      `${new Date(t1).toISOString().slice(0, 19)}Z`,
    );
    assert.equal(job.spec.template.spec?.restartPolicy, "OnFailure");
    const status = await waitFor("status.active", async () => {
      const s = (await getCronJob("every")).status;
      return s?.active?.length === 1 ? s : undefined;
    });
    assert.equal(status.active![0]!.name, jobFor(cj, t1));
    assert.equal(status.lastScheduleTime, `${new Date(t1).toISOString().slice(0, 19)}Z`);
    // Allow: the next minute starts another while the first still runs.
    at(cj, t1 + MINUTE + 1_000);
    await waitJobs(cj, [jobFor(cj, t1), jobFor(cj, t1 + MINUTE)]);
    await waitFor("created events", async () =>
      (await eventsFor(env.client, cj)).includes(`SuccessfulCreate: Created job ${jobFor(cj, t1)}`),
    );
  });

  it("Forbid: skips a run while one is active, runs again once it finished", async () => {
    const cj = await env.client.create(cronJobManifest("forbid", { concurrencyPolicy: "Forbid" }));
    const t1 = firstRun(cj);
    at(cj, t1 + 1_000);
    await waitJobs(cj, [jobFor(cj, t1)]);
    at(cj, t1 + MINUTE + 1_000);
    await waitFor("JobAlreadyActive", async () =>
      (await eventsFor(env.client, cj)).some((e) => e.startsWith("JobAlreadyActive:")),
    );
    assert.deepEqual(await jobsOf(cj), [jobFor(cj, t1)]);
    const done = await complete(jobFor(cj, t1));
    // With no startingDeadlineSeconds the skipped run is still due: it starts now.
    await waitJobs(cj, [jobFor(cj, t1), jobFor(cj, t1 + MINUTE)]);
    const status = await waitFor("the finished job out of active", async () => {
      const s = (await getCronJob("forbid")).status;
      return s?.active?.length === 1 && s.lastSuccessfulTime ? s : undefined;
    });
    assert.equal(status.active![0]!.name, jobFor(cj, t1 + MINUTE));
    assert.equal(status.lastSuccessfulTime, done.status?.completionTime);
  });

  it("Replace: deletes the running Job and starts the new one", async () => {
    const cj = await env.client.create(
      cronJobManifest("replace", { concurrencyPolicy: "Replace" }),
    );
    const t1 = firstRun(cj);
    at(cj, t1 + 1_000);
    await waitJobs(cj, [jobFor(cj, t1)]);
    at(cj, t1 + MINUTE + 1_000);
    await gone(jobFor(cj, t1));
    await waitJobs(cj, [jobFor(cj, t1 + MINUTE)]);
    const active = await waitFor("only the new job active", async () => {
      const a = (await getCronJob("replace")).status?.active;
      return a?.length === 1 && a[0]!.name === jobFor(cj, t1 + MINUTE) ? a : undefined;
    });
    assert.equal(active.length, 1);
  });

  it("keeps successfulJobsHistoryLimit finished Jobs", async () => {
    const cj = await env.client.create(
      cronJobManifest("history", { successfulJobsHistoryLimit: 1 }),
    );
    const t1 = firstRun(cj);
    at(cj, t1 + 1_000);
    await waitJobs(cj, [jobFor(cj, t1)]);
    await complete(jobFor(cj, t1));
    at(cj, t1 + MINUTE + 1_000);
    await waitJobs(cj, [jobFor(cj, t1), jobFor(cj, t1 + MINUTE)]);
    await complete(jobFor(cj, t1 + MINUTE));
    await gone(jobFor(cj, t1));
    assert.deepEqual(await jobsOf(cj), [jobFor(cj, t1 + MINUTE)]);
    await waitFor("the delete event", async () =>
      (await eventsFor(env.client, cj)).includes(`SuccessfulDelete: Deleted job ${jobFor(cj, t1)}`),
    );
  });

  it("skips a run missed by more than startingDeadlineSeconds", async () => {
    const cj = await env.client.create(
      cronJobManifest("deadline", { startingDeadlineSeconds: 10 }),
    );
    const t1 = firstRun(cj);
    at(cj, t1 + 30_000);
    // Let the controller look (and decide) before asserting nothing happened.
    await waitFor("a reconcile", () => env.controllers.cronJobs.queue.length === 0);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(await jobsOf(cj), []);
    at(cj, t1 + MINUTE + 5_000);
    await waitJobs(cj, [jobFor(cj, t1 + MINUTE)]);
  });

  it("runs only the most recent of many missed times, and says so", async () => {
    const cj = await env.client.create(cronJobManifest("asleep"));
    const t1 = firstRun(cj);
    const late = t1 + 180 * MINUTE;
    at(cj, late + 1_000);
    await waitJobs(cj, [jobFor(cj, late)]);
    await waitFor("TooManyMissedTimes", async () =>
      (await eventsFor(env.client, cj)).some((e) =>
        e.startsWith("TooManyMissedTimes: too many missed start times"),
      ),
    );
  });

  it("starts nothing while suspended", async () => {
    const cj = await env.client.create(cronJobManifest("napping", { suspend: true }));
    const t1 = firstRun(cj);
    at(cj, t1 + 1_000);
    await waitFor("a reconcile", () => env.controllers.cronJobs.queue.length === 0);
    assert.deepEqual(await jobsOf(cj), []);
    await env.client.patch(
      { apiVersion: "batch/v1", kind: "CronJob", name: "napping", namespace: "default" },
      { spec: { suspend: false } },
      { type: "merge" },
    );
    await waitJobs(cj, [jobFor(cj, t1)]);
  });
});
