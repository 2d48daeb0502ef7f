/**
 * The Job and CronJob controllers on the Manager's Clock (a FakeClock given as
 * `ManagerOptions.clock`, no `now` of their own), on the envtest apiserver:
 * the time they measure with and the requeueAfter timers they set are one
 * clock, so a Job fails at activeDeadlineSeconds, gets its next pod after the
 * failure backoff and is deleted ttlSecondsAfterFinished later, and a CronJob
 * starts its Job at the scheduled minute, each by its own timer once
 * `clock.advance` reaches that time — with no poke — and not one millisecond
 * before (one ms short of it the controller is made to look, and does nothing).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  activePods,
  conditionOf,
  cronJobManifest,
  jobCondition,
  jobManifest,
  podsOfJob,
} from "../../../test/support/batch.js";
import { pokeAndSettle, useEnv } from "../../../test/support/controller-run.js";
import { getOrGone, uniqueName, waitGone } from "../../../test/support/core-objects.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { CronJob, Job, Pod } from "../../api/index.js";
import { FakeClock } from "../../runtime/index.js";
import { type BatchControllers, registerBatchControllers } from "./batch-controllers.js";
import { NEXT_SCHEDULE_DELTA_MS } from "./schedule-times.js";

const NS = "default";
const MINUTE = 60_000;
const JOB = { apiVersion: "batch/v1", kind: "Job" };
const BACKOFF_MS = 10_000;
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

describe("batch controllers on the Manager's clock", () => {
  const env = useEnv<BatchControllers>();
  let clock: FakeClock;

  /**
   * Starts the controllers on a Manager whose clock starts at the next whole
   * second of the machine's time (the API's timestamps have whole seconds), and
   * whose reconcile deadline is beyond every step a test takes.
   */
  const start = async () => {
    clock = new FakeClock(Math.ceil(Date.now() / 1000) * 1000);
    await env.start(
      (m) =>
        registerBatchControllers(m, env.client, {
          podFailureBackoffMs: BACKOFF_MS,
          maxPodFailureBackoffMs: 8 * BACKOFF_MS,
        }),
      { clock, reconcileDeadlineMs: 3_600_000 },
    );
    return clock.now();
  };
  const handles = () => env.run!.handles;

  /**
   * Moves the clock onto `due`, where the controller's own timer must be
   * waiting: it steps through earlier timers (a retry's back-off) as they
   * come; at `quiet` (default one ms short of `due`) it makes the controller
   * look (`poke`), waits for that pass, and runs `notYet`, which asserts that
   * nothing happened early.
   */
  async function advanceOnto(
    due: number,
    look: { controller: "job" | "cronjob"; key: string; quiet?: number },
    notYet: () => Promise<void>,
  ) {
    const quiet = look.quiet ?? due - 1;
    await waitFor(`a timer due at ${new Date(due).toISOString()}`, () => {
      const next = clock.nextDue();
      if (next !== undefined && next < quiet) clock.advanceTo(next);
      return next === due;
    });
    clock.advanceTo(quiet);
    const handle = look.controller === "job" ? handles().jobs : handles().cronJobs;
    await pokeAndSettle(look.controller, handle.queue, () => handle.enqueue(look.key));
    await notYet();
    assert.equal(clock.nextDue(), due, "the controller's timer still waits for the time");
    clock.advanceTo(due);
  }
  const getJob = (name: string) => env.client.get<Job>({ ...JOB, namespace: NS, name });
  const looking = (name: string) => ({ controller: "job" as const, key: `${NS}/${name}` });
  const createJob = async (spec: Partial<Job["spec"]>) =>
    (await env.client.create(jobManifest(uniqueName("job"), spec))).metadata.name!;

  it("fails a Job exactly when the clock reaches activeDeadlineSeconds, by its own timer", async () => {
    const t0 = await start();
    const name = await createJob({ activeDeadlineSeconds: 30 });
    await activePods(env.client, name, 1);
    // The status with startTime is written after the pods are created.
    const startTime = await waitFor(
      "the Job's startTime",
      async () => (await getJob(name)).status?.startTime,
    );
    assert.equal(startTime, iso(t0), "started on the clock");
    await advanceOnto(t0 + 30_000, looking(name), async () =>
      assert.equal(conditionOf(await getJob(name), "Failed"), undefined, "not failed at 29.999 s"),
    );
    const failed = await jobCondition(env.client, name, "Failed");
    const c = failed.status!.conditions!.find((x) => x.type === "Failed")!;
    assert.equal(c.reason, "DeadlineExceeded");
    assert.equal(c.lastTransitionTime, iso(t0 + 30_000));
  });

  it("creates the next pod exactly when the failure backoff has passed on the clock", async () => {
    const t0 = await start();
    const name = await createJob({ backoffLimit: 3 });
    const [first] = await activePods(env.client, name, 1);
    // The kubelet reports the exit at the clock's time: the backoff counts from it.
    await failPod(first!, t0);
    await advanceOnto(t0 + BACKOFF_MS, looking(name), async () =>
      assert.deepEqual(
        (await podsOfJob(env.client, name)).map((p) => p.metadata.uid),
        [first!.metadata.uid],
        "no new pod within the backoff",
      ),
    );
    const [second] = await activePods(env.client, name, 1);
    assert.notEqual(second!.metadata.uid, first!.metadata.uid);
  });

  it("deletes a finished Job exactly ttlSecondsAfterFinished later, by its own timer", async () => {
    const t0 = await start();
    const name = await createJob({ ttlSecondsAfterFinished: 100 });
    const [pod] = await activePods(env.client, name, 1);
    await env.client.patchStatus(
      { apiVersion: "v1", kind: "Pod", name: pod!.metadata.name!, namespace: NS },
      { status: { phase: "Succeeded" } },
      { type: "merge" },
    );
    const done = await jobCondition(env.client, name, "Complete");
    assert.equal(done.status?.completionTime, iso(t0));
    await advanceOnto(t0 + 100_000, looking(name), async () =>
      assert.ok(await getOrGone(env.client, { ...JOB, namespace: NS, name }), "kept until the TTL"),
    );
    await waitGone(env.client, { ...JOB, namespace: NS, name });
  });

  it("starts a CronJob's Job at the scheduled minute, by its own timer", async () => {
    // Created before the clock starts: the clock is never behind its creationTimestamp.
    // Scheduled two minutes ahead, so that a slow start cannot carry the clock past it.
    const minute = new Date(Date.now() + 2 * MINUTE).getUTCMinutes();
    const cj = await env.client.create(
      cronJobManifest(uniqueName("cron"), { schedule: `${minute} * * * *` }),
    );
    await start();
    const created = Date.parse(cj.metadata.creationTimestamp!);
    let t1 = Math.floor(created / MINUTE) * MINUTE + MINUTE;
    while (new Date(t1).getUTCMinutes() !== minute) t1 += MINUTE;
    const jobsOf = async () =>
      (await env.client.list<Job>(JOB, { namespace: NS })).items
        .filter((j) => j.metadata.ownerReferences?.[0]?.uid === cj.metadata.uid)
        .map((j) => j.metadata.name);
    // The timer is due a little after the minute (kube's nextScheduleTimeDuration).
    const due = t1 + NEXT_SCHEDULE_DELTA_MS;
    await advanceOnto(
      due,
      { controller: "cronjob", key: `${NS}/${cj.metadata.name}`, quiet: t1 - 1 },
      async () => assert.deepEqual(await jobsOf(), [], "nothing before the minute"),
    );
    const name = `${cj.metadata.name}-${t1 / MINUTE}`;
    await waitFor(`job ${name}`, async () => ((await jobsOf()).includes(name) ? true : undefined));
    const s = await env.client.get<CronJob>({
      apiVersion: "batch/v1",
      kind: "CronJob",
      namespace: NS,
      name: cj.metadata.name!,
    });
    assert.equal(s.status?.lastScheduleTime, iso(t1));
  });

  /** Plays the kubelet: the pod failed, its container exiting at `at`. */
  async function failPod(pod: Pod, at: number) {
    await env.client.patchStatus(
      { apiVersion: "v1", kind: "Pod", name: pod.metadata.name!, namespace: NS },
      {
        status: {
          phase: "Failed",
          containerStatuses: [
            {
              name: "main",
              ready: false,
              restartCount: 0,
              image: "busybox",
              imageID: "",
              state: { terminated: { exitCode: 1, finishedAt: iso(at) } },
            },
          ],
        },
      },
      { type: "merge" },
    );
  }
});
