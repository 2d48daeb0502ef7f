/**
 * The Job controller over HTTP against an in-process apiserver, playing the
 * kubelet by setting pod phases through the status subresource: completion,
 * parallelism, backoffLimit, activeDeadlineSeconds, suspend, TTL after finished,
 * the tracking finalizer, and the apiserver's Job rules (422s, selector).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { hasCode } from "../../src/api/errors.js";
import {
  activePods,
  type BatchEnv,
  conditionOf,
  eventsFor,
  getJob,
  jobCondition,
  jobManifest,
  podsOfJob,
  setPhase,
  startBatchEnv,
} from "../support/batch.js";
import { waitFor } from "../support/hearth-process.js";

describe("Job controller", () => {
  let env: BatchEnv;
  before(async () => {
    env = await startBatchEnv();
  });
  after(async () => {
    await env?.stop();
  });

  it("runs pods one at a time until completions have succeeded", async () => {
    const { client } = env;
    const job = await client.create(jobManifest("twice", { completions: 2 }));
    const [first] = await activePods(client, "twice", 1);
    const meta = first!.metadata;
    assert.equal(meta.generateName, "twice-");
    assert.deepEqual(meta.finalizers, ["batch.kubernetes.io/job-tracking"]);
    assert.deepEqual(meta.ownerReferences, [
      {
        apiVersion: "batch/v1",
        kind: "Job",
        name: "twice",
        uid: job.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.equal(meta.labels?.["job-name"], "twice");
    assert.equal(meta.labels?.["batch.kubernetes.io/controller-uid"], job.metadata.uid);
    await setPhase(client, first!, "Succeeded");
    const [second] = await waitFor("a second pod", async () => {
      const pods = await activePods(client, "twice", 1);
      return pods[0]!.metadata.uid !== first!.metadata.uid ? pods : undefined;
    });
    await waitFor(
      "the first pod counted",
      async () => (await getJob(client, "twice")).status?.succeeded === 1,
    );
    await setPhase(client, second!, "Succeeded");
    const done = await jobCondition(client, "twice", "Complete");
    assert.equal(done.status?.succeeded, 2);
    assert.equal(done.status?.active, undefined);
    assert.ok(done.status?.completionTime);
    assert.ok(done.status?.startTime);
    assert.deepEqual(done.status?.uncountedTerminatedPods, {});
    const success = conditionOf(done, "SuccessCriteriaMet");
    assert.equal(success?.reason, "CompletionsReached");
    assert.equal(
      conditionOf(done, "Complete")?.message,
      "Reached expected number of succeeded pods",
    );
    for (const p of await podsOfJob(client, "twice"))
      assert.deepEqual(p.metadata.finalizers ?? [], []);
    await waitFor("events", async () => {
      const events = await eventsFor(client, done);
      return events.includes("Completed: Job completed") &&
        events.some((e) => e.startsWith("SuccessfulCreate: Created pod: twice-"))
        ? events
        : undefined;
    });
  });

  it("keeps parallelism pods active, never more than the completions left", async () => {
    const { client } = env;
    await client.create(jobManifest("wide", { completions: 3, parallelism: 2 }));
    const pods = await activePods(client, "wide", 2);
    for (const p of pods) await setPhase(client, p, "Succeeded");
    const [last] = await activePods(client, "wide", 1);
    await setPhase(client, last!, "Succeeded");
    const job = await jobCondition(client, "wide", "Complete");
    assert.equal(job.status?.succeeded, 3);
    assert.equal((await podsOfJob(client, "wide")).length, 3);
  });

  it("replaces failed pods after a backoff and fails past backoffLimit", async () => {
    const { client } = env;
    await client.create(jobManifest("flaky", { backoffLimit: 1 }));
    const [first] = await activePods(client, "flaky", 1);
    await setPhase(client, first!, "Failed");
    const [second] = await waitFor("a replacement pod", async () => {
      const pods = await activePods(client, "flaky", 1);
      return pods[0]!.metadata.uid !== first!.metadata.uid ? pods : undefined;
    });
    await waitFor(
      "the failure counted",
      async () => (await getJob(client, "flaky")).status?.failed === 1,
    );
    await setPhase(client, second!, "Failed");
    const job = await jobCondition(client, "flaky", "Failed");
    assert.equal(job.status?.failed, 2);
    assert.equal(conditionOf(job, "Failed")?.reason, "BackoffLimitExceeded");
    assert.equal(
      conditionOf(job, "Failed")?.message,
      "Job has reached the specified backoff limit",
    );
    assert.equal(conditionOf(job, "FailureTarget")?.reason, "BackoffLimitExceeded");
    assert.equal(job.status?.completionTime, undefined);
    assert.equal((await podsOfJob(client, "flaky")).length, 2);
  });

  it("counts a pod deleted before it finished as failed and replaces it", async () => {
    const { client } = env;
    await client.create(jobManifest("deleted-pod"));
    const [pod] = await activePods(client, "deleted-pod", 1);
    await client.delete({
      apiVersion: "v1",
      kind: "Pod",
      name: pod!.metadata.name!,
      namespace: "default",
    });
    const [replacement] = await waitFor("a replacement pod", async () => {
      const pods = await activePods(client, "deleted-pod", 1);
      return pods[0]!.metadata.uid !== pod!.metadata.uid ? pods : undefined;
    });
    // The deleted pod is gone once its finalizer is released.
    await waitFor("the deleted pod gone", async () =>
      client
        .get({ apiVersion: "v1", kind: "Pod", name: pod!.metadata.name!, namespace: "default" })
        .then(
          () => false,
          (e: unknown) => hasCode(e, 404),
        ),
    );
    await setPhase(client, replacement!, "Succeeded");
    const job = await jobCondition(client, "deleted-pod", "Complete");
    assert.equal(job.status?.failed, 1);
    assert.equal(job.status?.succeeded, 1);
  });

  it("fails a Job active longer than activeDeadlineSeconds and stops its pods", async () => {
    const { client } = env;
    // The deadline starts out far off and is cut to 1 s once both pods are seen
    // and one runs: a 1 s deadline from creation can pass on a loaded machine
    // before the test has listed both pods, and they are gone by then. Cutting
    // it counts from the same startTime, as kube's does on an update.
    await client.create(
      jobManifest("slow", { activeDeadlineSeconds: 3600, parallelism: 2, completions: 4 }),
    );
    const pods = await activePods(client, "slow", 2);
    await setPhase(client, pods[0]!, "Running");
    await client.patch(
      { apiVersion: "batch/v1", kind: "Job", name: "slow", namespace: "default" },
      { spec: { activeDeadlineSeconds: 1 } },
      { type: "merge" },
    );
    const job = await jobCondition(client, "slow", "Failed", 10_000);
    assert.equal(conditionOf(job, "Failed")?.reason, "DeadlineExceeded");
    assert.equal(
      conditionOf(job, "Failed")?.message,
      "Job was active longer than specified deadline",
    );
    assert.equal(job.status?.failed, 2);
    assert.equal(job.status?.active, undefined);
    await waitFor("the pods gone", async () => (await podsOfJob(client, "slow")).length === 0);
    await waitFor("the deadline event", async () =>
      (await eventsFor(client, job)).includes(
        "DeadlineExceeded: Job was active longer than specified deadline",
      ),
    );
  });

  it("deletes active pods while suspended and starts again on resume", async () => {
    const { client } = env;
    const created = await client.create(jobManifest("paused", { suspend: true }));
    const suspended = await jobCondition(client, "paused", "Suspended");
    assert.equal(suspended.status?.startTime, undefined);
    assert.equal((await podsOfJob(client, "paused")).length, 0);
    await client.patch(
      { apiVersion: "batch/v1", kind: "Job", name: "paused", namespace: "default" },
      { spec: { suspend: false } },
      { type: "merge" },
    );
    const [pod] = await activePods(client, "paused", 1);
    // The controller creates pods before it writes the status that says so.
    const resumed = await waitFor("the Job marked resumed", async () => {
      const job = await getJob(client, "paused");
      const reason = job.status?.conditions?.find((c) => c.type === "Suspended")?.reason;
      return reason === "JobResumed" ? job : undefined;
    });
    assert.ok(resumed.status?.startTime);
    await client.patch(
      { apiVersion: "batch/v1", kind: "Job", name: "paused", namespace: "default" },
      { spec: { suspend: true } },
      { type: "merge" },
    );
    await waitFor("the pod deleted", async () =>
      client
        .get({ apiVersion: "v1", kind: "Pod", name: pod!.metadata.name!, namespace: "default" })
        .then(
          () => false,
          (e: unknown) => hasCode(e, 404),
        ),
    );
    const again = await jobCondition(client, "paused", "Suspended");
    assert.equal(again.status?.failed, undefined, "a pod removed by suspend is not a failure");
    assert.equal(again.metadata.uid, created.metadata.uid);
  });

  it("deletes a finished Job ttlSecondsAfterFinished later", async () => {
    const { client } = env;
    // The TTL starts out far off and is cut to 1 s once the Job is seen Complete: a 1 s TTL from
    // the start can run out on a loaded machine before the test has seen the condition.
    await client.create(jobManifest("short-lived", { ttlSecondsAfterFinished: 3600 }));
    const [pod] = await activePods(client, "short-lived", 1);
    await setPhase(client, pod!, "Succeeded");
    await jobCondition(client, "short-lived", "Complete");
    await client.patch(
      { apiVersion: "batch/v1", kind: "Job", name: "short-lived", namespace: "default" },
      { spec: { ttlSecondsAfterFinished: 1 } },
      { type: "merge" },
    );
    await waitFor(
      "the Job deleted",
      () =>
        getJob(client, "short-lived").then(
          () => false,
          (e: unknown) => hasCode(e, 404),
        ),
      10_000,
    );
  });

  it("leaves an Indexed Job alone, saying why", async () => {
    const { client } = env;
    const job = await client.create(
      jobManifest("indexed", { completionMode: "Indexed", completions: 2 }),
    );
    await waitFor("the warning", async () =>
      (await eventsFor(client, job)).some((e) => e.startsWith("UnsupportedCompletionMode:")),
    );
    assert.equal((await podsOfJob(client, "indexed")).length, 0);
  });

  it("releases the finalizers of a deleted Job's pods", async () => {
    const { client } = env;
    await client.create(jobManifest("abandoned"));
    const [pod] = await activePods(client, "abandoned", 1);
    await client.delete(
      { apiVersion: "batch/v1", kind: "Job", name: "abandoned", namespace: "default" },
      { propagationPolicy: "Orphan" },
    );
    await waitFor("the finalizer released", async () => {
      const p = await client.get({
        apiVersion: "v1",
        kind: "Pod",
        name: pod!.metadata.name!,
        namespace: "default",
      });
      return (p.metadata.finalizers ?? []).length === 0;
    });
  });
});
