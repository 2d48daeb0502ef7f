/**
 * The etcd operator's EtcdCluster and EtcdMember reconcilers on the envtest
 * tier, with real etcd members (the test node runs each member pod's etcd):
 * a cluster is created with its Services, Secrets, members, claims and pods,
 * and becomes Ready with etcd listing every member as a voter; scaling up
 * adds members one at a time as learners then voters, scaling down removes
 * the newest, each leaving etcd through its finalizer before it is released;
 * deleting the cluster takes every member and pod with it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { clientServiceName } from "../../src/platform/operators/etcd/index.js";
import { eventsAbout, getOrGone, POD, waitForObject, waitGone } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";
import {
  CLUSTER,
  type EtcdOperatorTest,
  MEMBER,
  NS,
  startEtcdOperatorTest,
} from "./etcd-fixtures.js";

describe("etcd operator (envtest, real etcd): create, scale, delete", () => {
  let t: EtcdOperatorTest;
  before(async () => {
    t = await startEtcdOperatorTest();
  });
  after(() => t?.stop());

  it("creates a cluster: Services, member, claim and pod, Ready, one voter in etcd", async () => {
    await t.start();
    await t.createCluster("one", 1);
    const cluster = await t.waitReady("one", 1);
    const [member, ...more] = await t.members("one");
    assert.equal(more.length, 0);
    const name = member!.metadata.name!;
    for (const svc of ["one", clientServiceName("one"), name])
      assert.ok(
        await getOrGone(t.env.client, {
          apiVersion: "v1",
          kind: "Service",
          namespace: NS,
          name: svc,
        }),
        svc,
      );
    assert.ok(
      await getOrGone(t.env.client, {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        namespace: NS,
        name: `data-${name}`,
      }),
    );
    assert.ok(await getOrGone(t.env.client, { ...POD, namespace: NS, name }));
    const listed = await t.etcdMembers("one");
    assert.deepEqual(
      listed.map((m) => [m.name, m.learner]),
      [[name, false]],
    );
    assert.equal(cluster.status?.members?.[0]?.id, listed[0]!.id);
  });

  it("scales 1 → 3 → 1: one member at a time, a learner then a voter; the newest leave etcd first", async () => {
    await t.start({ gc: true }); // the collector takes a released member's pod
    await t.createCluster("scale", 1);
    await t.waitReady("scale", 1);
    const [bootstrapped] = (await t.members("scale")).map((m) => m.metadata.name!);
    await t.env.client.patch(
      { ...CLUSTER, namespace: NS, name: "scale" },
      { spec: { replicas: 3 } },
      { type: "merge" },
    );
    await t.waitReady("scale", 3);
    const three = (await t.members("scale")).map((m) => m.metadata.name!);
    assert.equal(three.length, 3);
    assert.deepEqual(
      (await t.etcdMembers("scale")).map((m) => [m.name, m.learner]),
      [...three].sort().map((n) => [n, false]),
    );
    const events = await eventsAbout(t.env.client, NS, "scale");
    // Age order is creationTimestamp (whole seconds) then name: a member added
    // in the bootstrapped one's second may sort before it, so the added ones
    // are named by what they are rather than by position.
    const added = three.filter((n) => n !== bootstrapped);
    assert.equal(added.length, 2, `${bootstrapped} is one of ${three}`);
    for (const n of added) {
      assert.ok(
        events.some((e) => e.startsWith(`MemberAdded: member ${n} added as a learner`)),
        n,
      );
      assert.ok(events.includes(`MemberPromoted: learner ${n} promoted to voter`), n);
    }

    await t.env.client.patch(
      { ...CLUSTER, namespace: NS, name: "scale" },
      { spec: { replicas: 1 } },
      { type: "merge" },
    );
    await t.waitReady("scale", 1);
    assert.deepEqual(
      (await t.members("scale")).map((m) => m.metadata.name),
      [three[0]],
      "the oldest stays",
    );
    assert.deepEqual(
      (await t.etcdMembers("scale")).map((m) => m.name),
      [three[0]],
    );
    for (const n of three.slice(1)) {
      await waitGone(t.env.client, { ...POD, namespace: NS, name: n });
      const about = await eventsAbout(t.env.client, NS, n);
      assert.ok(about.includes(`MemberRemoved: member ${n} removed from etcd`), `${n}: ${about}`);
    }
  });

  it("deletes a cluster: its members are released without leaving etcd, and their pods go", async () => {
    await t.start({ gc: true });
    await t.createCluster("doomed", 1);
    await t.waitReady("doomed", 1);
    const [member] = await t.members("doomed");
    const name = member!.metadata.name!;
    const pids = t.node.pids().length;
    await t.env.client.delete({ ...CLUSTER, namespace: NS, name: "doomed" });
    await waitGone(t.env.client, { ...MEMBER, namespace: NS, name });
    for (const kind of ["Pod", "Service"])
      await waitGone(t.env.client, { apiVersion: "v1", kind, namespace: NS, name });
    // Deleted by the collector; its protection finalizer is the storage controllers', not run here.
    await waitForObject(
      "the claim deleted",
      () =>
        getOrGone(t.env.client, {
          apiVersion: "v1",
          kind: "PersistentVolumeClaim",
          namespace: NS,
          name: `data-${name}`,
        }),
      (c) => c.metadata.deletionTimestamp !== undefined,
    );
    for (const svc of ["doomed", clientServiceName("doomed")])
      await waitGone(t.env.client, { apiVersion: "v1", kind: "Service", namespace: NS, name: svc });
    const about = await eventsAbout(t.env.client, NS, name);
    assert.ok(!about.some((e) => /^Member(Removed|RemoveSkipped)/.test(e)), `${about}`);
    await waitFor("its etcd stopped", () => t.node.pids().length === pids - 1);
  });
});
