import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DaemonSet, Pod } from "../../api/index.js";
import { manage, type NodeState, rollingUpdate } from "./daemon-plan.js";

const ds = (rollingUpdate: { maxUnavailable?: number | string; maxSurge?: number | string }) =>
  ({
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: { name: "d", uid: "u" },
    spec: { template: {}, updateStrategy: { type: "RollingUpdate", rollingUpdate } },
  }) as DaemonSet;

const pod = (name: string, hash: string, ok = true, phase = "Running"): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, labels: { "controller-revision-hash": hash }, creationTimestamp: name },
  spec: { containers: [] },
  status: {
    phase: phase as "Running",
    conditions: ok ? [{ type: "Ready", status: "True" }] : [],
  },
});
const run = { shouldRun: true, shouldContinueRunning: true };
const node = (name: string, pods: Pod[], placement = run): NodeState => ({ name, placement, pods });
const names = (pods: Pod[]) => pods.map((p) => p.metadata.name);

describe("manage", () => {
  it("creates where a node has none, deletes where pods may not stay, keeps the oldest", () => {
    const plan = manage(
      [
        node("a", []),
        node("b", [pod("b1", "h")], { shouldRun: false, shouldContinueRunning: false }),
        node("c", [pod("c1", "h"), pod("c2", "h")]),
        node("d", [pod("d1", "h")], { shouldRun: false, shouldContinueRunning: true }),
        node("e", [], { shouldRun: false, shouldContinueRunning: true }),
      ],
      "h",
      false,
    );
    assert.deepEqual(plan.create, ["a"]);
    assert.deepEqual(names(plan.delete), ["b1", "c2"]);
  });

  it("replaces a failed pod, and with surge keeps one pod of each revision", () => {
    const failed = manage([node("a", [pod("a1", "h", false, "Failed")])], "h", false);
    assert.deepEqual(names(failed.delete), ["a1"]);
    assert.deepEqual(failed.create, ["a"]);
    const surge = manage(
      [node("a", [pod("a1", "old"), pod("a2", "h"), pod("a3", "h")])],
      "h",
      true,
    );
    assert.deepEqual(names(surge.delete), ["a3"]);
  });
});

describe("rollingUpdate", () => {
  const nodes = () => [
    node("a", [pod("a1", "old")]),
    node("b", [pod("b1", "old")]),
    node("c", [pod("c1", "old", false)]),
  ];

  it("with maxSurge 0 replaces unavailable old pods at once and others within maxUnavailable", () => {
    assert.deepEqual(names(rollingUpdate(ds({ maxUnavailable: 1 }), nodes(), "h", 0).delete), [
      "c1",
    ]);
    assert.deepEqual(names(rollingUpdate(ds({ maxUnavailable: 2 }), nodes(), "h", 0).delete), [
      "c1",
      "a1",
    ]);
    const updating = [node("a", [pod("a2", "h", false)]), node("b", [pod("b1", "old")])];
    assert.deepEqual(rollingUpdate(ds({ maxUnavailable: 1 }), updating, "h", 0).delete, []);
  });

  it("with maxSurge adds new pods beside available old ones, and drops the old once the new is available", () => {
    const plan = rollingUpdate(ds({ maxUnavailable: 0, maxSurge: 1 }), nodes(), "h", 0);
    assert.deepEqual(plan.create, ["c", "a"]);
    const paired = [node("a", [pod("a1", "old"), pod("a2", "h")]), node("b", [pod("b1", "old")])];
    const next = rollingUpdate(ds({ maxUnavailable: 0, maxSurge: 1 }), paired, "h", 0);
    assert.deepEqual(names(next.delete), ["a1"]);
    assert.deepEqual(next.create, ["b"]);
  });
});
