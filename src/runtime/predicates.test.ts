import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../api/index.js";
import {
  annotationsChanged,
  anyOf,
  generationChanged,
  labelsChanged,
  passes,
} from "./predicates.js";
import { requestFromKey, requestKey } from "./refs.js";

function obj(meta: Partial<KubeObject["metadata"]>): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x", ...meta } };
}

describe("predicates", () => {
  const update = (old: KubeObject, o: KubeObject) => ({ type: "update" as const, old, obj: o });

  it("generationChanged passes only a new generation", () => {
    assert.equal(
      passes([generationChanged], update(obj({ generation: 1 }), obj({ generation: 1 }))),
      false,
    );
    assert.equal(
      passes([generationChanged], update(obj({ generation: 1 }), obj({ generation: 2 }))),
      true,
    );
  });

  it("labelsChanged and annotationsChanged compare the maps, absent as empty", () => {
    assert.equal(passes([labelsChanged], update(obj({}), obj({ labels: {} }))), false);
    assert.equal(
      passes([labelsChanged], update(obj({ labels: { a: "1" } }), obj({ labels: { a: "2" } }))),
      true,
    );
    assert.equal(passes([annotationsChanged], update(obj({ labels: { a: "1" } }), obj({}))), false);
    assert.equal(
      passes([annotationsChanged], update(obj({}), obj({ annotations: { a: "" } }))),
      true,
    );
  });

  it("lets creates and deletes through, as controller-runtime's", () => {
    for (const p of [generationChanged, labelsChanged, annotationsChanged]) {
      assert.equal(passes([p], { type: "create", obj: obj({}) }), true);
      assert.equal(passes([p], { type: "delete", obj: obj({}) }), true);
    }
  });

  it("needs every predicate of a source; anyOf needs one", () => {
    const old = obj({ generation: 1 });
    const relabelled = obj({ generation: 1, labels: { a: "b" } });
    assert.equal(passes([generationChanged, labelsChanged], update(old, relabelled)), false);
    assert.equal(passes([anyOf(generationChanged, labelsChanged)], update(old, relabelled)), true);
    assert.equal(
      passes([anyOf(generationChanged, annotationsChanged)], update(old, relabelled)),
      false,
    );
  });
});

describe("request keys", () => {
  it("parse back to the request", () => {
    for (const req of [{ name: "a" }, { namespace: "ns", name: "b" }]) {
      assert.deepEqual(requestFromKey(requestKey(req)), req);
    }
  });
});

describe("anyOf on creates and deletes", () => {
  const veto = { create: () => false, delete: () => false };
  const cases = [
    {
      name: "passes when one member has no opinion (an omitted method passes)",
      preds: [veto, generationChanged],
      want: true,
    },
    { name: "vetoes when every member vetoes", preds: [veto, veto], want: false },
    { name: "of nothing passes nothing", preds: [], want: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = anyOf(...c.preds);
      assert.equal(passes([p], { type: "create", obj: obj({}) }), c.want);
      assert.equal(passes([p], { type: "delete", obj: obj({}) }), c.want);
    });
  }

  it("a source with no predicates passes every event", () => {
    assert.equal(passes([], { type: "update", old: obj({}), obj: obj({}) }), true);
  });
});
