import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PodDisruptionBudget } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { validatePodDisruptionBudget } from "./policy-validation.js";

function pdb(spec: Record<string, unknown>, status?: Record<string, unknown>): PodDisruptionBudget {
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "b", namespace: "default" },
    spec: { selector: { matchLabels: { app: "web" } }, ...spec },
    ...(status ? { status: status as never } : {}),
  };
}

const messages = (o: PodDisruptionBudget) => validatePodDisruptionBudget(o).map(fieldErrorMessage);

describe("PodDisruptionBudget validation", () => {
  it("accepts integers, percentages up to 100% and both policies", () => {
    for (const spec of [
      { minAvailable: 0 },
      { minAvailable: "100%" },
      { maxUnavailable: 3 },
      { maxUnavailable: "0%", unhealthyPodEvictionPolicy: "AlwaysAllow" },
      { minAvailable: 1, unhealthyPodEvictionPolicy: "IfHealthyBudget", selector: {} },
      {},
    ])
      assert.deepEqual(messages(pdb(spec)), [], JSON.stringify(spec));
  });

  it("refuses both bounds, negative numbers and bad percentages with kube's paths", () => {
    assert.match(
      messages(pdb({ minAvailable: 1, maxUnavailable: 1 }))[0]!,
      /^spec: Invalid value: .*: minAvailable and maxUnavailable cannot be both set$/,
    );
    assert.deepEqual(messages(pdb({ maxUnavailable: -1 })), [
      "spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0",
    ]);
    assert.deepEqual(messages(pdb({ minAvailable: "101%" })), [
      'spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%',
    ]);
    assert.deepEqual(messages(pdb({ minAvailable: "five" })), [
      `spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"five"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ]);
  });

  it("checks the selector and the eviction policy", () => {
    assert.deepEqual(
      messages(
        pdb({
          selector: {
            matchLabels: { "bad key": "x" },
            matchExpressions: [
              { key: "a", operator: "In" },
              { key: "b", operator: "Exists", values: ["v"] },
              { key: "c", operator: "Near" },
              { key: "d", operator: "In", values: ["no spaces"] },
            ],
          },
          unhealthyPodEvictionPolicy: "Never",
        }),
      ).map((m) => m.split(":")[0]),
      [
        "spec.selector.matchExpressions[0].values",
        "spec.selector.matchExpressions[1].values",
        "spec.selector.matchExpressions[2].operator",
        "spec.selector.matchExpressions[3].values[0]",
        "spec.selector.matchLabels",
        "spec.unhealthyPodEvictionPolicy",
      ],
    );
    assert.deepEqual(messages(pdb({ unhealthyPodEvictionPolicy: "Never" })), [
      'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ]);
  });

  it("refuses negative status counts", () => {
    assert.deepEqual(
      messages(
        pdb(
          { minAvailable: 1 },
          { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
        ),
      ),
      ["status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0"],
    );
  });
});
