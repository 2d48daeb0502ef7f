import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pod, PodDisruptionBudget } from "../../api/index.js";
import {
  countHealthy,
  disruptedPodMap,
  expectedCounts,
  needsScale,
  nextStatus,
} from "./budget-status.js";

const NOW = Date.parse("2026-01-01T00:10:00Z");
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString().replace(/\.\d+Z$/, "Z");

function pod(name: string, ready = true, deleting = false): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default", ...(deleting ? { deletionTimestamp: at(0) } : {}) },
    spec: { containers: [] },
    status: { phase: "Running", conditions: [{ type: "Ready", status: ready ? "True" : "False" }] },
  } as Pod;
}

function pdb(
  spec: Record<string, unknown>,
  disruptedPods?: Record<string, string>,
): PodDisruptionBudget {
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "b", namespace: "default", generation: 2 },
    spec: { selector: {}, ...spec },
    status: {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      ...(disruptedPods ? { disruptedPods } : {}),
    },
  };
}

describe("disruption budget status", () => {
  it("needs the controllers' scale only for percentages and maxUnavailable", () => {
    assert.equal(needsScale(pdb({ minAvailable: 2 })), false);
    assert.equal(needsScale(pdb({ minAvailable: "50%" })), true);
    assert.equal(needsScale(pdb({ maxUnavailable: 1 })), true);
    assert.deepEqual(expectedCounts(pdb({ minAvailable: 2 }), 3, 0), {
      expectedCount: 3,
      desiredHealthy: 2,
    });
    assert.deepEqual(expectedCounts(pdb({ minAvailable: "50%" }), 3, 5), {
      expectedCount: 5,
      desiredHealthy: 3,
    });
    assert.deepEqual(expectedCounts(pdb({ maxUnavailable: "25%" }), 3, 4), {
      expectedCount: 4,
      desiredHealthy: 3,
    });
    assert.deepEqual(expectedCounts(pdb({ maxUnavailable: 9 }), 3, 4), {
      expectedCount: 4,
      desiredHealthy: 0,
    });
  });

  it("keeps evictions for 2 minutes and leaves those pods out of the healthy count", () => {
    const budget = pdb(
      { minAvailable: 1 },
      { a: at(30_000), b: at(180_000), gone: at(1000), c: at(1000) },
    );
    const pods = [pod("a"), pod("b"), pod("c", true, true), pod("d"), pod("e", false)];
    const map = disruptedPodMap(budget, pods, NOW);
    assert.deepEqual(map.kept, { a: at(30_000) });
    assert.deepEqual(
      map.expired.map((p) => p.metadata.name),
      ["b"],
    );
    assert.equal(map.recheckAt, NOW - 30_000 + 120_000);
    assert.equal(countHealthy(pods, map.kept, NOW), 2); // b and d
  });

  it("allows currentHealthy − desiredHealthy, never below 0 or with no pods expected", () => {
    const budget = pdb({ minAvailable: 2 });
    const s = nextStatus(
      budget,
      { currentHealthy: 3, desiredHealthy: 2, expectedCount: 3, disruptedPods: {} },
      NOW,
    )!;
    assert.equal(s.disruptionsAllowed, 1);
    assert.equal(s.observedGeneration, 2);
    assert.deepEqual(
      s.conditions?.map((c) => [c.type, c.status, c.reason, c.observedGeneration]),
      [["DisruptionAllowed", "True", "SufficientPods", 2]],
    );
    assert.equal(
      nextStatus(
        { ...budget, status: s },
        { currentHealthy: 3, desiredHealthy: 2, expectedCount: 3, disruptedPods: {} },
        NOW,
      ),
      undefined,
    );
    const none = nextStatus(
      budget,
      { currentHealthy: 0, desiredHealthy: 0, expectedCount: 0, disruptedPods: {} },
      NOW,
    )!;
    assert.equal(none.disruptionsAllowed, 0);
    assert.equal(none.conditions?.[0]?.reason, "InsufficientPods");
    const short = nextStatus(
      budget,
      { currentHealthy: 1, desiredHealthy: 2, expectedCount: 3, disruptedPods: {} },
      NOW,
    )!;
    assert.equal(short.disruptionsAllowed, 0);
  });
});
