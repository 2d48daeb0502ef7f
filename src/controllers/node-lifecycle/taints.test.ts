import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { desiredTaints, effectiveTolerations, evictionTime } from "./taints.js";
import type { NodeView, PodView, Taint, Toleration } from "./types.js";

const NOW = "2025-01-01T00:00:00Z";
const T0 = Date.parse(NOW);

function node(ready: "True" | "False" | "Unknown" | undefined, taints?: Taint[]): NodeView {
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "n1" },
    spec: taints ? { taints } : {},
    status: { conditions: ready ? [{ type: "Ready", status: ready }] : [] },
  };
}

function pod(tolerations?: Toleration[]): PodView {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "default" },
    spec: { containers: [], nodeName: "n1", ...(tolerations ? { tolerations } : {}) },
  };
}

const unreachable = (effect: string, timeAdded = NOW): Taint => ({
  key: "node.kubernetes.io/unreachable",
  effect,
  timeAdded,
});

describe("node lifecycle taints", () => {
  it("taints a cordoned node unschedulable:NoSchedule and removes it on uncordon", () => {
    const cordoned = { ...node("True"), spec: { unschedulable: true } };
    const tainted = [
      { key: "node.kubernetes.io/unschedulable", effect: "NoSchedule", timeAdded: NOW },
    ];
    assert.deepEqual(desiredTaints(cordoned, NOW), tainted);
    assert.equal(
      desiredTaints({ ...cordoned, spec: { unschedulable: true, taints: tainted } }, NOW),
      undefined,
    );
    const own = { key: "dedicated", effect: "NoSchedule" };
    assert.deepEqual(desiredTaints(node("True", [...tainted, own]), NOW), [own]);
  });

  it("adds both unreachable taints for Ready=Unknown, stamped now", () => {
    assert.deepEqual(desiredTaints(node("Unknown"), NOW), [
      unreachable("NoSchedule"),
      unreachable("NoExecute"),
    ]);
  });

  it("swaps unreachable for not-ready when Ready turns False, keeping other taints", () => {
    const user = { key: "dedicated", value: "db", effect: "NoExecute" };
    const earlier = "2024-12-31T00:00:00Z";
    const n = node("False", [
      user,
      unreachable("NoSchedule", earlier),
      unreachable("NoExecute", earlier),
    ]);
    assert.deepEqual(desiredTaints(n, NOW), [
      user,
      { key: "node.kubernetes.io/not-ready", effect: "NoSchedule", timeAdded: NOW },
      { key: "node.kubernetes.io/not-ready", effect: "NoExecute", timeAdded: NOW },
    ]);
  });

  it("removes them when Ready=True is back, and keeps present ones untouched", () => {
    const earlier = "2024-12-31T00:00:00Z";
    const tainted = [unreachable("NoSchedule", earlier), unreachable("NoExecute", earlier)];
    assert.deepEqual(desiredTaints(node("True", tainted), NOW), []);
    assert.equal(desiredTaints(node("Unknown", tainted), NOW), undefined, "nothing to change");
    assert.equal(desiredTaints(node("True"), NOW), undefined);
    assert.equal(desiredTaints(node(undefined), NOW), undefined);
  });

  it("adds kube's default 300 s tolerations only where the pod has none", () => {
    const keys = (ts: Toleration[]) => ts.map((t) => `${t.key}:${t.tolerationSeconds}`);
    assert.deepEqual(keys(effectiveTolerations(pod())), [
      "node.kubernetes.io/not-ready:300",
      "node.kubernetes.io/unreachable:300",
    ]);
    const own = pod([
      {
        key: "node.kubernetes.io/unreachable",
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 1,
      },
    ]);
    assert.deepEqual(keys(effectiveTolerations(own)), [
      "node.kubernetes.io/unreachable:1",
      "node.kubernetes.io/not-ready:300",
    ]);
    assert.equal(effectiveTolerations(pod([{ operator: "Exists" }])).length, 1, "tolerates all");
  });

  it("evicts after the toleration from when the taint started counting", () => {
    const since = () => T0;
    const taints = [unreachable("NoSchedule"), unreachable("NoExecute")];
    assert.equal(evictionTime(pod(), taints, since), T0 + 300_000);
    const quick = pod([
      { key: "node.kubernetes.io/unreachable", operator: "Exists", tolerationSeconds: 1 },
    ]);
    assert.equal(evictionTime(quick, taints, since), T0 + 1000);
    const forever = pod([{ key: "node.kubernetes.io/unreachable", operator: "Exists" }]);
    assert.equal(evictionTime(forever, taints, since), undefined);
    assert.equal(evictionTime(pod(), [unreachable("NoSchedule")], since), undefined);
  });

  it("evicts at once for a NoExecute taint the pod does not tolerate, never for NoSchedule", () => {
    const since = () => T0;
    const dedicated = { key: "dedicated", value: "db", effect: "NoExecute" };
    assert.equal(evictionTime(pod(), [dedicated], since), 0);
    const tolerating = pod([{ key: "dedicated", operator: "Equal", value: "db" }]);
    assert.equal(evictionTime(tolerating, [dedicated], since), undefined);
    const zero = pod([{ key: "dedicated", operator: "Exists", tolerationSeconds: -5 }]);
    assert.equal(evictionTime(zero, [dedicated], since), T0, "negative seconds count as 0");
    assert.equal(evictionTime(pod(), [{ ...dedicated, effect: "NoSchedule" }], since), undefined);
  });

  it("takes the earliest deadline over several NoExecute taints", () => {
    const since = (t: Taint) => (t.key === "a" ? T0 : T0 + 10_000);
    const p = pod([
      { key: "a", operator: "Exists", tolerationSeconds: 60 },
      { key: "b", operator: "Exists", tolerationSeconds: 5 },
    ]);
    const taints = [
      { key: "a", effect: "NoExecute" },
      { key: "b", effect: "NoExecute" },
    ];
    assert.equal(evictionTime(p, taints, since), T0 + 15_000);
  });
});
