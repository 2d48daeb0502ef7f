/**
 * The Job controller on the envtest apiserver, on a FakeClock the test moves
 * (then pokes the Job's key, as its own requeue would when the time comes), and
 * playing the kubelet by patching pod phases: completions and parallelism with
 * exact counters, the failure backoff and backoffLimit, activeDeadlineSeconds,
 * TTL after finished, the release of orphaned tracking finalizers, a 409 before
 * its status writes, and a crash between the steps of the exactly-once counting
 * protocol or between pod creations.
 */
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import {
  activePods,
  conditionOf,
  jobCondition,
  jobManifest,
  podsOfJob,
  setPhase,
} from "../../../test/support/batch.js";
import {
  type Call,
  conflictBefore,
  crashAfter,
  isWrite,
  pokeAndSettle,
  useEnv,
} from "../../../test/support/controller-run.js";
import { getOrGone, POD, uniqueName, waitGone } from "../../../test/support/core-objects.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import { JOB_TRACKING_FINALIZER, type Job, type Pod } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { FakeClock } from "../../runtime/index.js";
import { type BatchControllers, registerBatchControllers } from "./batch-controllers.js";

const NS = "default";
const JOB = { apiVersion: "batch/v1", kind: "Job" };
/** The failure backoff, on the fake clock (kube: 10 s). */
const BACKOFF_MS = 10_000;

describe("Job controller (envtest)", () => {
  const env = useEnv<BatchControllers>();
  let clock: FakeClock;
  // A clock per test, starting at the machine's time.
  beforeEach(() => {
    clock = new FakeClock(Date.now());
  });

  /** Runs the batch controllers with `client`, on a clock that starts at the machine's time. */
  const start = (client: Client = env.client) =>
    env.start((m) =>
      registerBatchControllers(m, client, {
        now: () => clock.now(),
        podFailureBackoffMs: BACKOFF_MS,
        maxPodFailureBackoffMs: 8 * BACKOFF_MS,
      }),
    );
  /** Moves the clock and wakes the Job, as its requeue would. */
  const advance = (name: string, ms: number) => {
    clock.advance(ms);
    env.run!.handles.jobs.enqueue(`${NS}/${name}`);
  };
  const getJob = (name: string) => env.client.get<Job>({ ...JOB, namespace: NS, name });
  const create = (spec: Partial<Job["spec"]> = {}) =>
    env.client.create(jobManifest(uniqueName("job"), spec));
  /** A new Job and, once the controller made it, its one active pod. */
  const withPod = async (spec: Partial<Job["spec"]>) => {
    const name = (await create(spec)).metadata.name!;
    const [pod] = await activePods(env.client, name, 1);
    return { name, pod: pod! };
  };
  const finalizerHolders = async (name: string) =>
    (await podsOfJob(env.client, name)).filter((p) =>
      (p.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER),
    );
  /** Waits until the Job's status says `field` is `value`. */
  const statusField = (name: string, field: "succeeded" | "failed" | "active", value: number) =>
    waitFor(`job ${name} ${field}=${value}`, async () => {
      const j = await getJob(name);
      return (j.status?.[field] ?? 0) === value ? j : undefined;
    });

  it("runs parallelism pods until completions have succeeded, counting each once", async () => {
    await start();
    const j = await create({ completions: 3, parallelism: 2 });
    const name = j.metadata.name!;
    const [a, b] = await activePods(env.client, name, 2);
    for (const p of [a!, b!]) {
      assert.deepEqual(p.metadata.finalizers, [JOB_TRACKING_FINALIZER]);
      assert.equal(p.metadata.ownerReferences?.[0]?.uid, j.metadata.uid);
      assert.equal(p.metadata.ownerReferences?.[0]?.controller, true);
    }
    await setPhase(env.client, a!, "Succeeded");
    await statusField(name, "succeeded", 1);
    // Two left to succeed, two running: still two.
    const [c] = (await activePods(env.client, name, 2)).filter(
      (p) => p.metadata.uid !== b!.metadata.uid,
    );
    await setPhase(env.client, b!, "Succeeded");
    await statusField(name, "succeeded", 2);
    // One left: the surplus is never created.
    await activePods(env.client, name, 1);
    await setPhase(env.client, c!, "Succeeded");
    const done = await jobCondition(env.client, name, "Complete");
    assert.equal(done.status?.succeeded, 3);
    assert.equal(done.status?.failed, undefined);
    assert.equal(done.status?.active, undefined);
    assert.deepEqual(done.status?.uncountedTerminatedPods, {});
    assert.equal(
      done.status?.completionTime,
      new Date(Math.floor(clock.now() / 1000) * 1000).toISOString().replace(".000", ""),
    );
    assert.ok(
      done.status?.conditions?.some((x) => x.type === "SuccessCriteriaMet" && x.status === "True"),
    );
    assert.deepEqual(await finalizerHolders(name), [], "every finished pod released");
    assert.equal((await podsOfJob(env.client, name)).length, 3);
  });

  it("waits out the failure backoff on its clock, then fails past backoffLimit", async () => {
    await start();
    const { name, pod: first } = await withPod({ backoffLimit: 1 });
    await setPhase(env.client, first, "Failed");
    await statusField(name, "failed", 1);
    // Within the backoff nothing is created, however often it is looked at.
    advance(name, BACKOFF_MS / 2);
    await statusField(name, "failed", 1);
    assert.deepEqual(
      (await podsOfJob(env.client, name)).map((p) => p.metadata.uid),
      [first.metadata.uid],
    );
    advance(name, BACKOFF_MS);
    const [second] = await activePods(env.client, name, 1);
    assert.notEqual(second!.metadata.uid, first.metadata.uid);
    await setPhase(env.client, second!, "Failed");
    const failed = await jobCondition(env.client, name, "Failed");
    const c = failed.status!.conditions!.find((x) => x.type === "Failed")!;
    assert.equal(c.reason, "BackoffLimitExceeded");
    assert.equal(c.message, "Job has reached the specified backoff limit");
    assert.equal(failed.status?.failed, 2);
    assert.deepEqual(await finalizerHolders(name), []);
  });

  it("fails a Job active past activeDeadlineSeconds on its clock and stops its pods", async () => {
    await start();
    const name = (await create({ activeDeadlineSeconds: 30, parallelism: 2, completions: 4 }))
      .metadata.name!;
    await activePods(env.client, name, 2);
    advance(name, 29_000);
    await statusField(name, "active", 2);
    assert.equal(conditionOf(await getJob(name), "Failed"), undefined);
    advance(name, 2_000);
    const failed = await jobCondition(env.client, name, "Failed");
    assert.equal(
      failed.status!.conditions!.find((x) => x.type === "Failed")!.reason,
      "DeadlineExceeded",
    );
    assert.equal(failed.status?.failed, 2, "the stopped pods count as failed");
    assert.equal(failed.status?.active, undefined);
    await waitFor("the pods gone", async () =>
      (await podsOfJob(env.client, name)).length === 0 ? true : undefined,
    );
  });

  it("deletes a finished Job ttlSecondsAfterFinished later on its clock, not before", async () => {
    await start();
    const { name, pod: p } = await withPod({ ttlSecondsAfterFinished: 100 });
    await setPhase(env.client, p, "Succeeded");
    await jobCondition(env.client, name, "Complete");
    await pokeAndSettle("job", env.run!.handles.jobs.queue, () => advance(name, 99_000));
    assert.ok(await getOrGone(env.client, { ...JOB, namespace: NS, name }), "kept until the TTL");
    advance(name, 2_000);
    await waitGone(env.client, { ...JOB, namespace: NS, name });
  });

  /** Table: a tracked pod no running Job counts loses its finalizer; others keep it. */
  const orphans: {
    name: string;
    released: boolean;
    make: () => Promise<Pod>;
  }[] = [
    {
      name: "a pod without a controller",
      released: true,
      make: () => trackedPod([]),
    },
    {
      name: "a pod of a Job deleted without cascading (Background, no collector)",
      released: true,
      make: async () => {
        const { name, pod } = await withPod({ parallelism: 1 });
        await env.client.delete(
          { ...JOB, namespace: NS, name },
          { propagationPolicy: "Background" },
        );
        return pod;
      },
    },
    {
      name: "a pod of a Job being deleted with Orphan",
      released: true,
      make: async () => {
        const { name, pod } = await withPod({ parallelism: 1 });
        await env.client.delete({ ...JOB, namespace: NS, name }, { propagationPolicy: "Orphan" });
        return pod;
      },
    },
    {
      name: "a pod controlled by something other than a Job",
      released: false,
      make: () =>
        trackedPod([
          {
            apiVersion: "apps/v1",
            kind: "ReplicaSet",
            name: "rs",
            uid: "rs-uid",
            controller: true,
          },
        ]),
    },
    {
      name: "a pod of a running Job",
      released: false,
      make: async () => {
        const { pod } = await withPod({ parallelism: 1 });
        return pod;
      },
    },
  ];
  async function trackedPod(ownerReferences: Pod["metadata"]["ownerReferences"]): Promise<Pod> {
    return env.client.create<Pod>({
      ...POD,
      metadata: {
        name: uniqueName("tracked"),
        namespace: NS,
        finalizers: [JOB_TRACKING_FINALIZER],
        ownerReferences,
      },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    } as Pod);
  }
  for (const o of orphans) {
    it(`${o.released ? "releases" : "keeps"} the tracking finalizer of ${o.name}`, async () => {
      await start();
      const pod = await o.make();
      const ref = { ...POD, namespace: NS, name: pod.metadata.name! };
      if (o.released) {
        await waitFor("the finalizer released", async () => {
          const p = await getOrGone(env.client, ref);
          return !p || !(p.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
        });
      } else {
        await waitFor(
          "the orphan controller idle",
          () => env.run!.handles.orphanPods.queue.length === 0,
        );
        const p = await env.client.get(ref);
        assert.deepEqual(p.metadata.finalizers, [JOB_TRACKING_FINALIZER]);
      }
      await env.client
        .patch(ref, { metadata: { finalizers: null } }, { type: "merge" })
        .catch(() => {});
    });
  }

  it("converges when the Job changes just before its status write (409), counting each pod once", async () => {
    const name = uniqueName("job");
    const { client, seen } = conflictBefore(
      env.client,
      (c) => isWrite(c, "Job", "updateStatus"),
      () =>
        env.client.patch(
          { ...JOB, namespace: NS, name },
          { metadata: { labels: { touched: "yes" } } },
          { type: "merge" },
        ),
      3,
    );
    await start(client);
    await env.client.create(jobManifest(name, { completions: 2, parallelism: 2 }));
    const pods = await activePods(env.client, name, 2);
    for (const p of pods) await setPhase(env.client, p, "Succeeded");
    const done = await jobCondition(env.client, name, "Complete");
    assert.equal(done.status?.succeeded, 2);
    assert.equal(done.metadata.labels?.touched, "yes");
    assert.ok(seen.conflicts >= 1, `a status write got a 409 (${seen.conflicts})`);
    assert.deepEqual(await finalizerHolders(name), []);
  });

  /** Table: the controller dies right after one write; a new one carries on. */
  const uncountedOf = (c: Call) =>
    (c.args[0] as Job).status?.uncountedTerminatedPods?.succeeded?.length ?? 0;
  const crashes: {
    name: string;
    at: (call: Call) => boolean;
    /** What the dead controller left, for the one pod that succeeded. */
    left: (j: Job, pod: Pod) => void;
  }[] = [
    {
      name: "after recording the pod as uncounted, before releasing it",
      at: (c) => isWrite(c, "Job", "updateStatus") && uncountedOf(c) > 0,
      left: (j, pod) => {
        assert.deepEqual(j.status?.uncountedTerminatedPods?.succeeded, [pod.metadata.uid]);
        assert.deepEqual(pod.metadata.finalizers, [JOB_TRACKING_FINALIZER]);
      },
    },
    {
      name: "after releasing the pod, before counting it",
      at: (c) => isWrite(c, "Pod", "patch"),
      left: (j, pod) => {
        assert.deepEqual(j.status?.uncountedTerminatedPods?.succeeded, [pod.metadata.uid]);
        assert.equal(j.status?.succeeded, undefined);
        assert.deepEqual(pod.metadata.finalizers ?? [], []);
      },
    },
  ];
  for (const k of crashes) {
    it(`counts a pod exactly once after a crash ${k.name}`, async () => {
      const name = (await create({})).metadata.name!;
      await start();
      const [pod] = await activePods(env.client, name, 1);
      await env.run!.stop();
      const { client, crashed } = crashAfter(env.client, k.at);
      await start(client);
      await setPhase(env.client, pod!, "Succeeded");
      await crashed;
      await env.run!.stop();
      const [midPod] = await podsOfJob(env.client, name);
      k.left(await getJob(name), midPod!);
      assert.equal(conditionOf(await getJob(name), "Complete"), undefined);
      await start();
      const done = await jobCondition(env.client, name, "Complete");
      assert.equal(done.status?.succeeded, 1);
      assert.deepEqual(done.status?.uncountedTerminatedPods, {});
      assert.deepEqual(await finalizerHolders(name), []);
    });
  }

  it("creates no pod twice and loses none after a crash between pod creations", async () => {
    const { client, crashed } = crashAfter(env.client, (c) => isWrite(c, "Pod", "create"));
    await start(client);
    const name = (await create({ parallelism: 3, completions: 3 })).metadata.name!;
    await crashed;
    await env.run!.stop();
    assert.equal((await podsOfJob(env.client, name)).length, 1, "one pod made it before the crash");
    await start();
    const pods = await activePods(env.client, name, 3);
    for (const p of pods) await setPhase(env.client, p, "Succeeded");
    const done = await jobCondition(env.client, name, "Complete");
    assert.equal(done.status?.succeeded, 3);
    assert.equal((await podsOfJob(env.client, name)).length, 3, "never more than completions");
  });
});
