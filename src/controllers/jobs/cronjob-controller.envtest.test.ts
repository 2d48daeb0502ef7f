/**
 * The CronJob controller on the envtest apiserver, on a FakeClock the test
 * moves (then pokes the CronJob's key, as its requeue would when the time
 * comes): a few missed runs start only the latest, suspend and resume, the
 * failed-Jobs history limit, an active Job deleted behind its back, a 409
 * before its status write, and a crash after creating a Job (or, with Replace,
 * after deleting the old one) before the status says so.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cronJobManifest } from "../../../test/support/batch.js";
import {
  type Call,
  conflictBefore,
  crashAfter,
  isWrite,
  pokeAndSettle,
  useEnv,
} from "../../../test/support/controller-run.js";
import { uniqueName, waitEvent, waitGone } from "../../../test/support/core-objects.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { CronJob, Job } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { FakeClock } from "../../runtime/index.js";
import { type BatchControllers, registerBatchControllers } from "./batch-controllers.js";

const NS = "default";
const MINUTE = 60_000;
const JOB = { apiVersion: "batch/v1", kind: "Job" };
const CRON_JOB = { apiVersion: "batch/v1", kind: "CronJob" };

describe("CronJob controller (envtest)", () => {
  const env = useEnv<BatchControllers>();
  let clock: FakeClock;

  const start = (client: Client = env.client) =>
    env.start((m) => registerBatchControllers(m, client, { now: () => clock.now() }));
  const getCronJob = (name: string) =>
    env.client.get<CronJob>({ ...CRON_JOB, namespace: NS, name });
  /** Sets the clock to `ms` and wakes the CronJob. */
  const at = (cj: CronJob, ms: number) => {
    clock.advance(ms - clock.now());
    env.run!.handles.cronJobs.enqueue(`${NS}/${cj.metadata.name}`);
  };
  /** The first whole minute after the CronJob was created. */
  const firstRun = (cj: CronJob) =>
    Math.floor(Date.parse(cj.metadata.creationTimestamp!) / MINUTE) * MINUTE + MINUTE;
  const jobFor = (cj: CronJob, scheduled: number) => `${cj.metadata.name}-${scheduled / MINUTE}`;
  const jobsOf = async (cj: CronJob) =>
    (await env.client.list<Job>(JOB, { namespace: NS })).items
      .filter((j) => j.metadata.ownerReferences?.[0]?.uid === cj.metadata.uid)
      .map((j) => j.metadata.name!)
      .sort();
  const waitJobs = (cj: CronJob, names: string[]) =>
    waitFor(`jobs ${names.join(",")}`, async () => {
      const now = await jobsOf(cj);
      return JSON.stringify(now) === JSON.stringify([...names].sort()) ? now : undefined;
    });
  /** Waits until status.active names exactly `names`. */
  const activeIs = (name: string, names: string[]) =>
    waitFor(`${name} active = ${names.join(",")}`, async () => {
      const cj = await getCronJob(name);
      const active = (cj.status?.active ?? []).map((r) => r.name).sort();
      return JSON.stringify(active) === JSON.stringify([...names].sort()) ? cj : undefined;
    });
  const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
  /** Plays the Job controller's last word: the Job finished as `type`. */
  const finish = (name: string, type: "Complete" | "Failed", startTime: number) =>
    // The Job controller writes this status too: a 409 is retried on a fresh read.
    waitFor(`job ${name} ${type}`, async () => {
      const j = await env.client.get<Job>({ ...JOB, namespace: NS, name });
      const t = iso(clock.now());
      return env.client.updateStatus({
        ...j,
        status: {
          startTime: iso(startTime),
          ...(type === "Complete" ? { completionTime: t, succeeded: 1 } : { failed: 1 }),
          conditions: [{ type, status: "True", lastTransitionTime: t, lastProbeTime: t }],
        },
      });
    });
  const newCronJob = async (spec: Partial<CronJob["spec"]> = {}) => {
    clock = new FakeClock(Date.now());
    return env.client.create(cronJobManifest(uniqueName("cron"), spec));
  };

  it("starts only the most recent of a few missed times", async () => {
    const cj = await newCronJob();
    await start();
    const t1 = firstRun(cj);
    at(cj, t1 + 4 * MINUTE + 30_000);
    await waitJobs(cj, [jobFor(cj, t1 + 4 * MINUTE)]);
    const s = await activeIs(cj.metadata.name!, [jobFor(cj, t1 + 4 * MINUTE)]);
    assert.equal(s.status?.lastScheduleTime, iso(t1 + 4 * MINUTE));
    // The next minute runs as usual.
    at(cj, t1 + 5 * MINUTE + 1_000);
    await waitJobs(cj, [jobFor(cj, t1 + 4 * MINUTE), jobFor(cj, t1 + 5 * MINUTE)]);
  });

  it("starts nothing while suspended and, resumed, runs only the latest time it missed", async () => {
    const cj = await newCronJob({ suspend: true });
    await start();
    const t1 = firstRun(cj);
    // Two scheduled times pass while suspended, each looked at.
    const settleAt = (ms: number) =>
      pokeAndSettle("cronjob", env.run!.handles.cronJobs.queue, () => at(cj, ms));
    await settleAt(t1 + 10_000);
    assert.deepEqual(await jobsOf(cj), []);
    await settleAt(t1 + MINUTE + 10_000);
    assert.deepEqual(await jobsOf(cj), []);
    await env.client.patch(
      { ...CRON_JOB, namespace: NS, name: cj.metadata.name! },
      { spec: { suspend: false } },
      { type: "merge" },
    );
    await waitJobs(cj, [jobFor(cj, t1 + MINUTE)]);
    const s = await activeIs(cj.metadata.name!, [jobFor(cj, t1 + MINUTE)]);
    assert.equal(s.status?.lastScheduleTime, iso(t1 + MINUTE));
  });

  it("keeps failedJobsHistoryLimit failed Jobs, oldest deleted first", async () => {
    const cj = await newCronJob({ failedJobsHistoryLimit: 1, successfulJobsHistoryLimit: 5 });
    await start();
    const t1 = firstRun(cj);
    for (let i = 0; i < 3; i++) {
      const t = t1 + i * MINUTE;
      at(cj, t + 1_000);
      await activeIs(cj.metadata.name!, [jobFor(cj, t)]);
      await finish(jobFor(cj, t), i === 1 ? "Complete" : "Failed", t);
      await activeIs(cj.metadata.name!, []);
    }
    at(cj, t1 + 2 * MINUTE + 2_000);
    // Failed: t1 and t1+2m, one kept (the newer); the Complete one stays.
    await waitJobs(cj, [jobFor(cj, t1 + MINUTE), jobFor(cj, t1 + 2 * MINUTE)]);
    const s = await getCronJob(cj.metadata.name!);
    assert.equal(
      s.status?.lastSuccessfulTime,
      iso(t1 + MINUTE + 1_000),
      "when the Complete one finished",
    );
  });

  it("drops an active Job deleted behind its back and says so", async () => {
    const cj = await newCronJob();
    await start();
    const t1 = firstRun(cj);
    at(cj, t1 + 1_000);
    await activeIs(cj.metadata.name!, [jobFor(cj, t1)]);
    await env.client.delete({ ...JOB, namespace: NS, name: jobFor(cj, t1) });
    await activeIs(cj.metadata.name!, []);
    await waitEvent(
      env.client,
      NS,
      cj.metadata.name!,
      new RegExp(`^MissingJob: Active job went missing: ${jobFor(cj, t1)}$`),
    );
  });

  it("converges when the CronJob changes just before its status write (409), creating the Job once", async () => {
    const cj = await newCronJob();
    const { client, seen } = conflictBefore(
      env.client,
      (c) => isWrite(c, "CronJob", "updateStatus"),
      () =>
        env.client.patch(
          { ...CRON_JOB, namespace: NS, name: cj.metadata.name! },
          { metadata: { labels: { touched: "yes" } } },
          { type: "merge" },
        ),
    );
    await start(client);
    const t1 = firstRun(cj);
    at(cj, t1 + 1_000);
    const s = await activeIs(cj.metadata.name!, [jobFor(cj, t1)]);
    assert.equal(s.status?.lastScheduleTime, iso(t1));
    assert.equal(s.metadata.labels?.touched, "yes");
    assert.equal(seen.conflicts, 1);
    assert.deepEqual(await jobsOf(cj), [jobFor(cj, t1)]);
  });

  /** Table: the controller dies right after one write; a new one carries on. */
  const crashes: {
    name: string;
    spec: Partial<CronJob["spec"]>;
    at: (call: Call) => boolean;
    /** Scheduled times run, the crash's being the last. */
    runs: number;
  }[] = [
    {
      name: "after creating a Job, before recording it",
      spec: {},
      at: (c) => isWrite(c, "Job", "create"),
      runs: 1,
    },
    {
      name: "after Replace deleted the running Job, before creating the next",
      spec: { concurrencyPolicy: "Replace" },
      at: (c) => isWrite(c, "Job", "delete"),
      runs: 2,
    },
  ];
  for (const k of crashes) {
    it(`ends with one active Job after a crash ${k.name}`, async () => {
      const cj = await newCronJob(k.spec);
      const t1 = firstRun(cj);
      const last = t1 + (k.runs - 1) * MINUTE;
      if (k.runs > 1) {
        await start();
        at(cj, t1 + 1_000);
        await activeIs(cj.metadata.name!, [jobFor(cj, t1)]);
        await env.run!.stop();
      }
      const { client, crashed } = crashAfter(env.client, k.at);
      await start(client);
      at(cj, last + 1_000);
      await crashed;
      await env.run!.stop();
      const mid = await getCronJob(cj.metadata.name!);
      assert.notEqual(
        mid.status?.lastScheduleTime,
        iso(last),
        "the crash came before the status write",
      );
      if (k.runs > 1) await waitGone(env.client, { ...JOB, namespace: NS, name: jobFor(cj, t1) });
      else assert.deepEqual(await jobsOf(cj), [jobFor(cj, last)]);
      await start();
      at(cj, last + 2_000);
      const s = await activeIs(cj.metadata.name!, [jobFor(cj, last)]);
      assert.equal(s.status?.lastScheduleTime, iso(last));
      assert.deepEqual(await jobsOf(cj), [jobFor(cj, last)]);
    });
  }
});
