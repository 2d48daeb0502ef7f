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
