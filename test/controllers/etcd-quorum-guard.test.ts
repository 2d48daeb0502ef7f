/**
 * The EtcdMember finalizer's quorum guard on the envtest tier, with a real
 * 3-member etcd run by the test node: while one member's etcd is down (held
 * down by the node, as a dead machine), deleting another EtcdMember by hand is
 * blocked — a Warning `RemoveBlocked` Event, the member stays in etcd and keeps
 * its finalizer — and once the dead member is back the deleted one leaves
 * etcd, is released, and the cluster replaces it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { EtcdMember } from "../../src/platform/operators/etcd/index.js";
import { eventsAbout, getOrGone, waitEvent, waitGone } from "../support/core-objects.js";
import { type EtcdOperatorTest, MEMBER, NS, startEtcdOperatorTest } from "./etcd-fixtures.js";

describe("etcd operator (envtest, real etcd): the quorum guard of a member leaving", () => {
  let t: EtcdOperatorTest;
  before(async () => {
    t = await startEtcdOperatorTest();
  });
  after(() => t?.stop());

  it("blocks the removal while a voter is down, and removes once it is back", async () => {
    await t.start({ gc: true });
    await t.createCluster("guard", 3);
    const [a, b, c] = (await t.converged("guard", 3)) as [string, string, string];
    await t.node.hold(NS, c);
    await t.env.client.delete({ ...MEMBER, namespace: NS, name: b });
    const why = `cannot remove member ${b} from etcd: 1 of the 2 remaining voters do not answer`;
    await waitEvent(t.env.client, NS, b, new RegExp(`^RemoveBlocked: ${why}$`));
    const kept = await getOrGone<EtcdMember>(t.env.client, { ...MEMBER, namespace: NS, name: b });
    assert.deepEqual(
      kept?.metadata.finalizers,
      ["etcd.hearth.io/member-cleanup"],
      "the finalizer stays",
    );
    assert.deepEqual(
      (await t.etcdMembers("guard", a)).map((m) => m.name),
      [a, b, c].sort(),
      `${b} is still a member`,
    );
    assert.ok(!(await eventsAbout(t.env.client, NS, b)).some((e) => e.startsWith("MemberRemoved")));

    t.node.release(NS, c);
    // etcd itself refuses a removal ("unhealthy cluster") until the member that came
    // back has been connected for a few seconds: the runtime's retries wait it out.
    await waitGone(t.env.client, { ...MEMBER, namespace: NS, name: b }, 60_000);
    await waitEvent(
      t.env.client,
      NS,
      b,
      new RegExp(`^MemberRemoved: member ${b} removed from etcd$`),
    );
    const now = await t.converged("guard", 3);
    assert.deepEqual(
      now.slice(0, 2),
      [a, c],
      "the two stay, and a new member replaces the removed one",
    );
  });
});
