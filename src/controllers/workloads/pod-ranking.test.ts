import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pod } from "../../api/index.js";
import { podsToDelete } from "./pod-ranking.js";

const NOW = Date.parse("2026-01-01T12:00:00Z");
const ago = (s: number) => new Date(NOW - s * 1000).toISOString().replace(/\.\d+Z$/, "Z");

function pod(
  name: string,
  o: {
    node?: string;
    phase?: string;
    readyFor?: number;
    age?: number;
    cost?: number;
    restarts?: number;
  } = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      uid: name,
      creationTimestamp: ago(o.age ?? 1000),
      ...(o.cost !== undefined
        ? { annotations: { "controller.kubernetes.io/pod-deletion-cost": String(o.cost) } }
        : {}),
    },
    spec: { containers: [], nodeName: o.node ?? "n1" },
    status: {
      phase: (o.phase ?? "Running") as "Running",
      conditions:
        o.readyFor !== undefined
          ? [{ type: "Ready", status: "True", lastTransitionTime: ago(o.readyFor) }]
          : [{ type: "Ready", status: "False" }],
      containerStatuses: [
        { name: "c", ready: true, restartCount: o.restarts ?? 0, image: "", imageID: "" },
      ],
    },
  } as Pod;
}

const order = (pods: Pod[], related = pods) =>
  podsToDelete(pods, related, pods.length, NOW).map((p) => p.metadata.name);

describe("scale-down order (kube's ActivePodsWithRanks)", () => {
  it("takes unassigned, then pending, unknown, not ready, before ready pods", () => {
    const pods = [
      pod("ready", { readyFor: 500 }),
      pod("running-not-ready"),
      pod("unknown", { phase: "Unknown" }),
      pod("pending", { phase: "Pending" }),
      pod("unassigned", { node: "", phase: "Pending" }),
    ];
    assert.deepEqual(order(pods), [
      "unassigned",
      "pending",
      "unknown",
      "running-not-ready",
      "ready",
    ]);
  });

  it("takes a lower deletion cost first, then pods doubled up on a node", () => {
    const pods = [
      pod("alone", { node: "n2", readyFor: 500 }),
      pod("crowded-a", { node: "n1", readyFor: 500 }),
      pod("crowded-b", { node: "n1", readyFor: 500 }),
      pod("cheap", { node: "n3", readyFor: 500, cost: -10 }),
    ];
    const [first, second, third, last] = order(pods);
    assert.equal(first, "cheap");
    assert.deepEqual([second, third].sort(), ["crowded-a", "crowded-b"]);
    assert.equal(last, "alone");
  });

  it("takes the pod ready for less time, in log2 buckets, then more restarts, then the newest", () => {
    const pods = [pod("ready-long", { readyFor: 4000 }), pod("ready-short", { readyFor: 10 })];
    assert.deepEqual(order(pods), ["ready-short", "ready-long"]);
    // 1000 s and 1050 s fall in one log2 bucket of nanoseconds: the uid decides, as in kube.
    const same = [pod("zz", { readyFor: 1000 }), pod("aa", { readyFor: 1050 })];
    assert.deepEqual(order(same), ["aa", "zz"]);
    // Not ready: more restarts go first, before age is looked at.
    const flaky = [pod("calm", { age: 5 }), pod("flaky", { age: 5000, restarts: 3 })];
    assert.deepEqual(order(flaky), ["flaky", "calm"]);
    const unready = [pod("old", { age: 5000 }), pod("new", { age: 5 })];
    assert.deepEqual(order(unready), ["new", "old"]);
  });

  it("takes only as many as asked", () => {
    const pods = [pod("a", { readyFor: 100 }), pod("b"), pod("c", { readyFor: 100 })];
    assert.deepEqual(
      podsToDelete(pods, pods, 1, NOW).map((p) => p.metadata.name),
      ["b"],
    );
    assert.deepEqual(podsToDelete(pods, pods, 0, NOW), []);
  });
});
