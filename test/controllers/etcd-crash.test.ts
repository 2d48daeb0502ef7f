/**
 * The etcd operator cut short, on the envtest tier with real etcd members: a
 * Manager whose client "dies" between two steps of a membership change — an
 * EtcdMember created on scale-up; one of three members told to bootstrap
 * but not the others; a learner added to etcd but not yet told
 * how to start; a member removed from etcd but its finalizer not yet
 * released — and a fresh Manager on the same apiserver finishes the change:
 * the wanted number of members, each once in etcd, no stray learner, no
 * member left with its finalizer. Also a 409 on the finalizer's release,
 * retried until the member goes, leaving etcd once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type Call,
  CrashError,
  conflictBefore,
  crashAfter,
  intercept,
  isWrite,
} from "../support/controller-run.js";
import { eventsAbout, waitForObject } from "../support/core-objects.js";
import { CLUSTER, type EtcdOperatorTest, NS, startEtcdOperatorTest } from "./etcd-fixtures.js";

const FINALIZER = "etcd.hearth.io/member-cleanup";

interface MemberPatch {
  metadata?: { finalizers?: string[] };
  spec?: { initialClusterState?: string };
}
const body = (c: Call) => (c.args[1] ?? {}) as MemberPatch;
const memberPatch = (c: Call) => isWrite(c, "EtcdMember", "patch");
/** The patch that tells a joining member to start (`existing`), the step after MemberAdd. */
const toldToJoin = (c: Call) => memberPatch(c) && body(c).spec?.initialClusterState === "existing";
/** The patch that tells a member to bootstrap a new cluster (`new`). */
const toldToBootstrap = (c: Call) => memberPatch(c) && body(c).spec?.initialClusterState === "new";
/** The patch that releases a member's finalizer, the step after MemberRemove. */
const release = (c: Call) =>
  memberPatch(c) && body(c).metadata?.finalizers?.includes(FINALIZER) === false;

describe("etcd operator (envtest, real etcd): a crash between two steps, a 409", () => {
  let t: EtcdOperatorTest;
  before(async () => {
    t = await startEtcdOperatorTest();
  });
  after(() => t?.stop());

  const scale = (name: string, replicas: number) =>
    t.env.client.patch(
      { ...CLUSTER, namespace: NS, name },
      { spec: { replicas } },
      { type: "merge" },
    );
  /** A client that dies just before the first call `at` matches reaches the API. */
  const crashBefore = (at: (c: Call) => boolean) => {
    let down = false;
    let crash: () => void = () => {};
    const crashed = new Promise<void>((r) => {
      crash = r;
    });
    const client = intercept(t.env.client, {
      before(call) {
        if (!down && at(call)) {
          down = true;
          crash();
        }
        if (down) throw new CrashError(call);
      },
    });
    return { client, crashed };
  };
  const removedEvents = async (member: string) =>
    (await eventsAbout(t.env.client, NS, member)).filter((e) => e.startsWith("MemberRemoved:"));

  it("a restart after an EtcdMember was created on scale-up creates no more than wanted", async () => {
    await t.start({ gc: true });
    await t.createCluster("grow", 1);
    await t.waitReady("grow", 1);
    const { client, crashed } = crashAfter(t.env.client, (c) => isWrite(c, "EtcdMember", "create"));
    await t.start({ client, gc: true });
    await scale("grow", 3);
    await crashed;
    assert.equal((await t.members("grow")).length, 2, "the one member created landed");
    await t.start({ gc: true });
    await t.converged("grow", 3);
  });

  it("a restart between telling the first of three members to bootstrap and the others bootstraps all three", async () => {
    // The first member alone, told to start a 3-member cluster, has no quorum:
    // etcd does not answer until the other two are told the same.
    const { client, crashed } = crashAfter(t.env.client, toldToBootstrap);
    await t.start({ client, gc: true });
    await t.createCluster("boot", 3);
    await crashed;
    const told = (await t.members("boot")).filter((m) => m.spec.initialCluster);
    assert.equal(told.length, 1, "one member was told to bootstrap");
    await t.start({ gc: true });
    await t.converged("boot", 3);
  });

  it("a restart between a learner's MemberAdd and telling its member to start joins it once", async () => {
    await t.start({ gc: true });
    await t.createCluster("join", 1);
    await t.waitReady("join", 1);
    const { client, crashed } = crashBefore(toldToJoin);
    await t.start({ client, gc: true });
    await scale("join", 3);
    await crashed;
    const listed = await t.etcdMembers("join");
    assert.equal(listed.length, 2, "etcd lists the learner");
    assert.equal(listed.filter((m) => m.learner).length, 1);
    await t.start({ gc: true });
    await t.converged("join", 3);
  });

  it("a restart between MemberRemove and the finalizer's release releases the member", async () => {
    await t.start({ gc: true });
    await t.createCluster("shrink", 3);
    const three = await t.converged("shrink", 3);
    const { client, crashed } = crashBefore(release);
    await t.start({ client, gc: true });
    await scale("shrink", 1);
    await crashed;
    const leaving = three[2]!;
    const pending = await waitForObject(
      `${leaving} kept by its finalizer`,
      async () => (await t.members("shrink")).find((m) => m.metadata.name === leaving),
      (m) => m.metadata.deletionTimestamp !== undefined,
    );
    assert.deepEqual(pending.metadata.finalizers, [FINALIZER]);
    assert.equal((await t.etcdMembers("shrink", three[0])).length, 2, "it left etcd");
    await t.start({ gc: true });
    assert.deepEqual(await t.converged("shrink", 1), [three[0]]);
    for (const m of three.slice(1)) assert.equal((await removedEvents(m)).length, 1, m);
  });

  it("retries the finalizer's release after a 409; each member leaves etcd once", async () => {
    await t.start({ gc: true });
    await t.createCluster("raced", 3);
    const three = await t.converged("raced", 3);
    const { client, seen } = conflictBefore(
      t.env.client,
      release,
      (call, nth) =>
        t.env.client.patch(
          call.args[0] as { apiVersion: string; kind: string; name: string; namespace: string },
          { metadata: { labels: { [`other-${nth}`]: "yes" } } },
          { type: "merge" },
        ),
      2,
    );
    await t.start({ client, gc: true });
    await scale("raced", 1);
    assert.deepEqual(await t.converged("raced", 1), [three[0]]);
    assert.equal(seen.conflicts, 2, "both releases conflicted first");
    for (const m of three.slice(1)) assert.equal((await removedEvents(m)).length, 1, m);
  });
});
