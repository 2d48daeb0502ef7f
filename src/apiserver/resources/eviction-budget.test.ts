import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pod, PodDisruptionBudget, PodDisruptionBudgetStatus } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import {
  canIgnoreBudget,
  mustPinResourceVersion,
  spendDisruption,
  unhealthyMayGo,
} from "./eviction-budget.js";

const NOW = Date.parse("2026-01-01T00:00:00Z");

function pod(phase: string, ready = true, deleting = false): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "p",
      namespace: "default",
      ...(deleting ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}),
    },
    spec: { containers: [] },
    status: { phase, conditions: [{ type: "Ready", status: ready ? "True" : "False" }] },
  } as Pod;
}

function pdb(
  status: Partial<PodDisruptionBudgetStatus>,
  extra: Record<string, unknown> = {},
): PodDisruptionBudget {
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "b", namespace: "default", generation: 1 },
    spec: { minAvailable: 2, selector: {}, ...extra },
    status: {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      observedGeneration: 1,
      ...status,
    },
  };
}

function refusal(f: () => unknown): { code: number; message: string; causes?: unknown } {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ApiError);
    return { code: e.code, message: e.message, causes: e.details.causes };
  }
  assert.fail("expected a refusal");
}

describe("eviction decisions", () => {
  it("ignores budgets for finished, pending and deleting pods", () => {
    assert.equal(canIgnoreBudget(pod("Succeeded")), true);
    assert.equal(canIgnoreBudget(pod("Failed")), true);
    assert.equal(canIgnoreBudget(pod("Pending")), true);
    assert.equal(canIgnoreBudget(pod("Running", true, true)), true);
    assert.equal(canIgnoreBudget(pod("Running")), false);
    assert.equal(mustPinResourceVersion(pod("Pending")), true);
    assert.equal(mustPinResourceVersion(pod("Failed")), false);
  });

  it("lets an unready pod go while the budget is met, or always with AlwaysAllow", () => {
    assert.equal(
      unhealthyMayGo(pod("Running", false), pdb({ currentHealthy: 2, desiredHealthy: 2 })),
      true,
    );
    assert.equal(
      unhealthyMayGo(pod("Running", false), pdb({ currentHealthy: 1, desiredHealthy: 2 })),
      false,
    );
    assert.equal(
      unhealthyMayGo(
        pod("Running", false),
        pdb(
          { currentHealthy: 1, desiredHealthy: 2 },
          { unhealthyPodEvictionPolicy: "AlwaysAllow" },
        ),
      ),
      true,
    );
    assert.equal(
      unhealthyMayGo(pod("Running", true), pdb({ currentHealthy: 3, desiredHealthy: 2 })),
      false,
    );
  });

  it("spends one disruption and records the pod", () => {
    const next = spendDisruption(
      pdb({ disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2 }),
      "p",
      NOW,
      false,
    );
    assert.equal(next.status?.disruptionsAllowed, 0);
    assert.deepEqual(next.status?.disruptedPods, { p: "2026-01-01T00:00:00Z" });
    assert.deepEqual(
      next.status?.conditions?.map((c) => [c.type, c.status, c.reason]),
      [["DisruptionAllowed", "False", "InsufficientPods"]],
    );
    const dry = spendDisruption(pdb({ disruptionsAllowed: 2 }), "p", NOW, true);
    assert.equal(dry.status?.disruptionsAllowed, 1);
    assert.equal(dry.status?.disruptedPods, undefined);
    assert.equal(dry.status?.conditions, undefined);
  });

  it("refuses as kube does", () => {
    assert.deepEqual(
      refusal(() =>
        spendDisruption(pdb({ currentHealthy: 2, desiredHealthy: 2 }), "p", NOW, false),
      ),
      {
        code: 429,
        message: "Cannot evict pod as it would violate the pod's disruption budget.",
        causes: [
          {
            reason: "DisruptionBudget",
            message: "The disruption budget b needs 2 healthy pods and has 2 currently",
          },
        ],
      },
    );
    const behind = pdb({ disruptionsAllowed: 1, observedGeneration: 0 });
    assert.deepEqual(refusal(() => spendDisruption(behind, "p", NOW, false)).causes, [
      {
        reason: "DisruptionBudget",
        message: "The disruption budget b is still being processed by the server.",
      },
    ]);
    assert.deepEqual(
      refusal(() => spendDisruption(pdb({ disruptionsAllowed: -1 }), "p", NOW, false)),
      {
        code: 403,
        message: 'poddisruptionbudget.policy "b" is forbidden: pdb disruptions allowed is negative',
        causes: undefined,
      },
    );
  });
});
