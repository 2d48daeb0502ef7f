import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decide, type NodeState } from "./pod-decision.js";
import type { NodeView, PodView, Taint, Toleration } from "./types.js";

const T0 = Date.parse("2025-01-01T00:00:00Z");

function node(ready: "True" | "Unknown" | "False", taints: Taint[] = []): NodeView {
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "n1" },
    spec: { taints },
    status: { conditions: [{ type: "Ready", status: ready }] },
  };
}

function pod(
  opts: { nodeName?: string; terminating?: boolean; tolerations?: Toleration[] } = {},
): PodView {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "p",
      namespace: "default",
      ...(opts.terminating ? { deletionTimestamp: "2025-01-01T00:00:30Z" } : {}),
    },
    spec: {
      containers: [],
      ...(opts.nodeName === "" ? {} : { nodeName: opts.nodeName ?? "n1" }),
      ...(opts.tolerations ? { tolerations: opts.tolerations } : {}),
    },
  };
}

const state = (silent: boolean): NodeState => ({ silent, taintSince: () => T0 });
const unreachable: Taint[] = [
  { key: "node.kubernetes.io/unreachable", effect: "NoSchedule" },
  { key: "node.kubernetes.io/unreachable", effect: "NoExecute" },
];

describe("pod GC decision", () => {
  it("leaves unbound pods alone and calls pods of a missing node orphaned", () => {
    assert.deepEqual(decide(pod({ nodeName: "" }), undefined, state(false), T0), { kind: "keep" });
    assert.deepEqual(decide(pod(), undefined, state(false), T0), { kind: "orphaned" });
    assert.deepEqual(decide(pod({ terminating: true }), undefined, state(true), T0), {
      kind: "orphaned",
    });
  });

  it("force-deletes a terminating pod only when its node is silent and not Ready", () => {
    const terminating = pod({ terminating: true });
    assert.deepEqual(decide(terminating, node("Unknown", unreachable), state(true), T0), {
      kind: "forceDelete",
    });
    assert.deepEqual(decide(terminating, node("False"), state(true), T0), { kind: "forceDelete" });
    assert.deepEqual(decide(terminating, node("Unknown", unreachable), state(false), T0), {
      kind: "keep",
    });
    assert.deepEqual(decide(terminating, node("True"), state(true), T0), { kind: "keep" });
  });

  it("evicts a running pod from an unreachable node when its toleration runs out", () => {
    const quick = pod({
      tolerations: [
        {
          key: "node.kubernetes.io/unreachable",
          operator: "Exists",
          effect: "NoExecute",
          tolerationSeconds: 1,
        },
      ],
    });
    const n = node("Unknown", unreachable);
    assert.deepEqual(decide(quick, n, state(true), T0 + 400), {
      kind: "keep",
      recheckAfterMs: 600,
    });
    assert.deepEqual(decide(quick, n, state(true), T0 + 1000), { kind: "evict" });
    assert.deepEqual(decide(pod(), n, state(true), T0 + 299_999), {
      kind: "keep",
      recheckAfterMs: 1,
    });
    assert.deepEqual(decide(pod(), n, state(true), T0 + 300_000), { kind: "evict" });
    assert.deepEqual(decide(pod(), node("True"), state(false), T0 + 300_000), { kind: "keep" });
  });
});
