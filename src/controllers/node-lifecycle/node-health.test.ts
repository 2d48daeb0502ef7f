import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NodeHealth, silentConditions } from "./node-health.js";
import type { Lease, NodeCondition, NodeView } from "./types.js";

const T0 = Date.parse("2025-01-01T00:00:00Z");
const GRACE = 40_000;

function node(conditions: NodeCondition[], name = "n1"): NodeView {
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, creationTimestamp: "2024-12-31T00:00:00Z" },
    status: { conditions },
  };
}

function lease(renewTime: string): Lease {
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name: "n1", namespace: "kube-node-lease" },
    spec: { holderIdentity: "n1", renewTime },
  };
}

const ready = (lastHeartbeatTime: string): NodeCondition => ({
  type: "Ready",
  status: "True",
  reason: "KubeletReady",
  lastHeartbeatTime,
});

describe("node health", () => {
  it("gives a node first seen a full grace period, whatever its lease says", () => {
    const h = new NodeHealth(GRACE, T0);
    const n = node([ready("2020-01-01T00:00:00Z")]);
    assert.deepEqual(h.observe(n, lease("2020-01-01T00:00:00.000000Z"), T0), {
      probeMs: T0,
      first: true,
    });
    assert.equal(h.isSilent("n1", T0 + GRACE - 1), false);
    assert.equal(h.isSilent("n1", T0 + GRACE), true);
    assert.equal(h.isSilent("never-seen", T0 + 10 * GRACE), false);
  });

  it("counts a renewed lease or a new heartbeat as a sign of life, nothing else", () => {
    const h = new NodeHealth(GRACE, T0);
    const n = node([ready("2025-01-01T00:00:00Z")]);
    h.observe(n, lease("a"), T0);
    assert.equal(h.observe(n, lease("a"), T0 + 30_000).probeMs, T0, "same lease");
    assert.equal(h.observe(n, lease("b"), T0 + 35_000).probeMs, T0 + 35_000, "renewed");
    assert.equal(h.observe(n, undefined, T0 + 50_000).probeMs, T0 + 35_000, "lease gone");
    const posted = node([ready("2025-01-01T00:01:00Z")]);
    assert.equal(h.observe(posted, undefined, T0 + 60_000).probeMs, T0 + 60_000, "heartbeat");
  });

  it("does not take the controller's own Unknown condition for a sign of life", () => {
    const h = new NodeHealth(GRACE, T0);
    h.observe(node([]), undefined, T0);
    const marked = silentConditions(node([]), "2025-01-01T00:00:40Z");
    assert.ok(marked);
    assert.equal(h.observe(node(marked), undefined, T0 + GRACE).probeMs, T0);
    assert.equal(h.isSilent("n1", T0 + GRACE), true);
  });

  it("forgets a node, so that it is first seen again", () => {
    const h = new NodeHealth(GRACE, T0);
    h.observe(node([]), undefined, T0);
    h.forget("n1");
    assert.equal(h.isSilent("n1", T0 + GRACE), false);
    assert.equal(h.observe(node([]), undefined, T0 + GRACE).first, true);
  });

  it("counts taints from timeAdded, but not before the controller started", () => {
    const h = new NodeHealth(GRACE, T0);
    const late = { key: "k", effect: "NoExecute", timeAdded: "2025-01-01T00:01:00Z" };
    assert.equal(h.taintSince("n1", late, T0 + 90_000), T0 + 60_000);
    const old = { key: "k", effect: "NoExecute", timeAdded: "2024-01-01T00:00:00Z" };
    assert.equal(h.taintSince("n1", old, T0 + 90_000), T0);
    const bare = { key: "k", effect: "NoExecute" };
    assert.equal(h.taintSince("n1", bare, T0 + 5000), T0 + 5000, "first seen");
    assert.equal(h.taintSince("n1", bare, T0 + 9000), T0 + 5000, "remembered");
  });
});

describe("silent node conditions", () => {
  const NOW = "2025-01-01T00:00:40Z";

  it("turns the four monitored conditions Unknown with kube's reason and message", () => {
    const n = node([
      ready("2025-01-01T00:00:00Z"),
      { type: "MemoryPressure", status: "False", lastHeartbeatTime: "2025-01-01T00:00:00Z" },
      { type: "NetworkUnavailable", status: "False" },
    ]);
    const out = silentConditions(n, NOW);
    assert.deepEqual(out?.[0], {
      type: "Ready",
      status: "Unknown",
      reason: "NodeStatusUnknown",
      message: "Kubelet stopped posting node status.",
      lastHeartbeatTime: "2025-01-01T00:00:00Z",
      lastTransitionTime: NOW,
    });
    assert.equal(out?.[1]?.status, "Unknown");
    assert.deepEqual(out?.[2], { type: "NetworkUnavailable", status: "False" }, "not monitored");
    assert.deepEqual(
      out?.slice(3).map((c) => [c.type, c.reason, c.message, c.lastHeartbeatTime]),
      [
        [
          "DiskPressure",
          "NodeStatusNeverUpdated",
          "Kubelet never posted node status.",
          n.metadata.creationTimestamp,
        ],
        [
          "PIDPressure",
          "NodeStatusNeverUpdated",
          "Kubelet never posted node status.",
          n.metadata.creationTimestamp,
        ],
      ],
    );
    assert.equal(silentConditions(node(out ?? []), NOW), undefined, "already Unknown");
  });
});
