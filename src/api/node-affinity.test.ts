import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type NodeAffinitySpec, nodeAffinityMatches } from "./node-affinity.js";

const node = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name, labels },
});

const required = (...nodeSelectorTerms: object[]): NodeAffinitySpec => ({
  affinity: {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } },
  },
});

describe("nodeAffinityMatches", () => {
  it("ANDs nodeSelector with any one term, each term the AND of its requirements", () => {
    const spec = {
      nodeSelector: { zone: "a" },
      ...required(
        { matchExpressions: [{ key: "disk", operator: "In", values: ["ssd"] }] },
        { matchFields: [{ key: "metadata.name", operator: "In", values: ["n2"] }] },
      ),
    };
    assert.equal(nodeAffinityMatches(spec, node("n1", { zone: "a", disk: "ssd" })), true);
    assert.equal(nodeAffinityMatches(spec, node("n2", { zone: "a" })), true);
    assert.equal(nodeAffinityMatches(spec, node("n3", { zone: "a" })), false);
    assert.equal(nodeAffinityMatches(spec, node("n2", { zone: "b" })), false);
  });

  it("reads NotIn, Exists, DoesNotExist, Gt and Lt as kube does", () => {
    const one = (operator: string, values?: string[]) =>
      required({ matchExpressions: [{ key: "k", operator, ...(values ? { values } : {}) }] });
    assert.equal(nodeAffinityMatches(one("NotIn", ["x"]), node("n")), true);
    assert.equal(nodeAffinityMatches(one("Exists"), node("n")), false);
    assert.equal(nodeAffinityMatches(one("DoesNotExist"), node("n")), true);
    assert.equal(nodeAffinityMatches(one("Gt", ["5"]), node("n", { k: "6" })), true);
    assert.equal(nodeAffinityMatches(one("Lt", ["5"]), node("n", { k: "6" })), false);
    assert.equal(nodeAffinityMatches(one("Gt", ["5"]), node("n", { k: "six" })), false);
  });

  it("matches nothing with an empty term, and fields other than metadata.name never", () => {
    assert.equal(nodeAffinityMatches(required({}), node("n")), false);
    const other = required({
      matchFields: [{ key: "spec.unschedulable", operator: "In", values: ["n"] }],
    });
    assert.equal(nodeAffinityMatches(other, node("n")), false);
    assert.equal(nodeAffinityMatches(undefined, node("n")), true);
  });
});
