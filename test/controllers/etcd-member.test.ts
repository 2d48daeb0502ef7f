/**
 * The EtcdMember finalizer on the envtest tier, on a FakeClock: it never
 * sticks. A member whose etcd does not answer (no test node here: no member
 * runs) is kept, its removal retried, while the 5-minute deadline runs, and
 * released with a Warning Event once the Manager's clock has passed it; a
 * member of a cluster that is being deleted, or is gone, is released at once
 * (the clock never moves). A 409 on adding the finalizer is retried.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/index.js";
import type { EtcdMember } from "../../src/platform/operators/etcd/index.js";
import { FakeClock } from "../../src/runtime/index.js";
import { conflictBefore, isWrite } from "../support/controller-run.js";
import { EVENT, getOrGone, waitForObject, waitGone } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";
import {
  CLUSTER,
  type EtcdOperatorTest,
  MEMBER,
  NS,
  startEtcdOperatorTest,
} from "./etcd-fixtures.js";

const FINALIZER = "etcd.hearth.io/member-cleanup";
const HOLD = "example.com/hold";
const MINUTE = 60_000;

describe("EtcdMember finalizer (envtest, FakeClock)", () => {
  let t: EtcdOperatorTest;
  let clock: FakeClock;
  /** The member reconciles that failed, by member name. */
  let failures: Map<string, unknown[]>;
  before(async () => {
    t = await startEtcdOperatorTest({ node: false });
  });
  after(() => t?.stop());

  const start = (client = t.env.client) => {
    clock = new FakeClock(Date.now());
    failures = new Map();
    return t.start({
      client,
      clock,
      onReconcileError: (controller, req, err) => {
        if (controller !== "etcdmember") return;
        failures.set(req.name, [...(failures.get(req.name) ?? []), err]);
      },
    });
  };
  const failed = (name: string) => failures.get(name)?.length ?? 0;
  const memberRef = (name: string) => ({ ...MEMBER, namespace: NS, name });

  /** A cluster of one whose member has its finalizer and has been told how to start. */
  async function clusterWithMember(name: string): Promise<string> {
    await t.createCluster(name, 1);
    const member = await waitFor(`a started member of ${name}`, async () => {
      const [m] = await t.members(name);
      return m?.spec.initialCluster && m.metadata.finalizers?.includes(FINALIZER) ? m : undefined;
    });
    return member.metadata.name!;
  }
  /** `type reason: message` of the Events about `name`. */
  const events = async (name: string) =>
    (
      await t.env.client.list<KubeObject & { type?: string; reason?: string; message?: string }>(
        EVENT,
        { namespace: NS, fieldSelector: `involvedObject.name=${name}` },
      )
    ).items.map((e) => `${e.type} ${e.reason}: ${e.message}`);

  it("keeps a member that cannot leave etcd while the deadline runs, then releases it with a Warning", async () => {
    await start();
    const name = await clusterWithMember("late");
    await t.env.client.delete(memberRef(name));
    await waitFor("a failed removal", () => failed(name) > 0);
    const kept = () => getOrGone<EtcdMember>(t.env.client, memberRef(name));
    assert.deepEqual((await kept())?.metadata.finalizers, [FINALIZER], "kept at first");

    const tries = failed(name);
    clock.advance(4 * MINUTE);
    await waitFor("the removal retried on the clock", () => failed(name) > tries);
    assert.deepEqual((await kept())?.metadata.finalizers, [FINALIZER], "kept after 4 minutes");
    assert.ok(
      !(await events(name)).some((e) => e.includes("MemberRemoveSkipped")),
      "no Warning before the deadline",
    );

    clock.advance(2 * MINUTE);
    await waitGone("the member after 6 minutes", kept);
    const warning = await waitFor("the Warning", async () =>
      (await events(name)).find((e) => e.startsWith("Warning MemberRemoveSkipped: ")),
    );
    assert.match(
      warning,
      /released without leaving etcd after 5 minutes: cannot reach|UNAVAILABLE|No connection/,
    );
  });

  for (const what of ["is being deleted", "is gone"] as const) {
    it(`releases a member at once when its cluster ${what}`, async () => {
      await start();
      const cluster = what === "is gone" ? "orphan" : "held";
      const name = await clusterWithMember(cluster);
      const ref = { ...CLUSTER, namespace: NS, name: cluster };
      if (what === "is being deleted")
        await t.env.client.patch(ref, { metadata: { finalizers: [HOLD] } }, { type: "merge" });
      // No garbage collector runs: the member outlives its cluster until deleted here.
      await t.env.client.delete(ref);
      await t.env.client.delete(memberRef(name));
      await waitGone(t.env.client, memberRef(name));
      assert.equal(failed(name), 0, "no attempt to leave etcd failed");
      assert.deepEqual(
        (await events(name)).filter((e) => !e.includes("PodCreated")),
        [],
        "no Warning, no removal",
      );
      if (what === "is being deleted")
        await t.env.client.patch(ref, { metadata: { finalizers: null } }, { type: "merge" });
    });
  }

  it("retries adding the finalizer after a 409 and keeps the other writer's change", async () => {
    const { client, seen } = conflictBefore(
      t.env.client,
      (call) =>
        isWrite(call, "EtcdMember", "patch") &&
        (
          (call.args[1] as { metadata?: { finalizers?: string[] } }).metadata?.finalizers ?? []
        ).includes(FINALIZER),
      (call) =>
        t.env.client.patch(
          call.args[0] as { apiVersion: string; kind: string; name: string; namespace: string },
          { metadata: { labels: { other: "writer" } } },
          { type: "merge" },
        ),
    );
    await start(client);
    const name = await clusterWithMember("raced");
    assert.equal(seen.interfered, 1);
    assert.equal(seen.conflicts, 1, "the first finalizer write conflicted");
    const member = await waitForObject(
      "the member with its finalizer",
      () => getOrGone<EtcdMember>(t.env.client, memberRef(name)),
      (m) => m.metadata.finalizers?.includes(FINALIZER) === true,
    );
    assert.equal(member.metadata.labels?.other, "writer");
  });
});
