/** Reading schemas: allOf folding, field lookup, list shapes and atomic maps. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../api/index.js";
import { fieldSchema, isAtomicMap, itemsSchema, listShape, resolveSchema } from "./schema-view.js";

const str: Schema = { type: "string" };

describe("resolveSchema", () => {
  it("folds allOf[0] in, the outer keys winning", () => {
    const wrapped: Schema = {
      description: "outer",
      allOf: [{ type: "object", description: "inner", properties: { a: str } }],
      "x-kubernetes-patch-strategy": "merge",
    };
    assert.deepEqual(resolveSchema(wrapped), {
      type: "object",
      description: "outer",
      properties: { a: str },
      "x-kubernetes-patch-strategy": "merge",
    });
    assert.equal(resolveSchema(undefined), undefined);
    assert.equal(resolveSchema(str), str);
  });
});

describe("fieldSchema", () => {
  const struct: Schema = { type: "object", properties: { a: str } };
  const map: Schema = { type: "object", additionalProperties: { type: "integer" } };

  it("finds declared fields as named, map values as not named", () => {
    assert.deepEqual(fieldSchema(struct, "a"), { schema: str, named: true });
    assert.deepEqual(fieldSchema(map, "anything"), { schema: { type: "integer" }, named: false });
    assert.deepEqual(fieldSchema(struct, "b"), { schema: undefined, named: false });
    assert.deepEqual(fieldSchema(undefined, "a"), { schema: undefined, named: false });
  });

  it("does not mistake inherited properties for fields", () => {
    assert.deepEqual(fieldSchema(struct, "constructor"), { schema: undefined, named: false });
    assert.deepEqual(fieldSchema(struct, "__proto__"), { schema: undefined, named: false });
  });

  it("looks through allOf wrappers to items and properties", () => {
    const list: Schema = { allOf: [{ type: "array", items: { allOf: [struct] } }] };
    assert.deepEqual(itemsSchema(list), struct);
    assert.deepEqual(fieldSchema({ allOf: [struct] }, "a"), { schema: str, named: true });
  });
});

describe("listShape", () => {
  const list = (extra: Partial<Schema>): Schema => ({ type: "array", items: str, ...extra });

  it("follows x-kubernetes-list-type first", () => {
    assert.deepEqual(listShape(list({ "x-kubernetes-list-type": "atomic" })), { kind: "atomic" });
    assert.deepEqual(listShape(list({ "x-kubernetes-list-type": "set" })), { kind: "set" });
    assert.deepEqual(
      listShape(
        list({ "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["a", "b"] }),
      ),
      { kind: "map", keys: ["a", "b"] },
    );
    assert.deepEqual(listShape(list({ "x-kubernetes-list-type": "map" })), { kind: "atomic" });
    assert.deepEqual(
      listShape(
        list({
          "x-kubernetes-list-type": "atomic",
          "x-kubernetes-patch-strategy": "merge",
          "x-kubernetes-patch-merge-key": "name",
        }),
      ),
      { kind: "atomic" },
    );
  });

  it("falls back to the patch strategy, then to atomic", () => {
    assert.deepEqual(
      listShape(
        list({ "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name" }),
      ),
      { kind: "map", keys: ["name"] },
    );
    assert.deepEqual(
      listShape(
        list({
          "x-kubernetes-patch-strategy": "merge,retainKeys",
          "x-kubernetes-patch-merge-key": "k",
        }),
      ),
      { kind: "map", keys: ["k"] },
    );
    assert.deepEqual(listShape(list({ "x-kubernetes-patch-strategy": "merge" })), { kind: "set" });
    assert.deepEqual(listShape(list({ "x-kubernetes-patch-strategy": "retainKeys" })), {
      kind: "atomic",
    });
    assert.deepEqual(listShape(list({})), { kind: "atomic" });
    assert.deepEqual(listShape(undefined), { kind: "atomic" });
  });
});

describe("isAtomicMap", () => {
  it("reads x-kubernetes-map-type", () => {
    assert.equal(isAtomicMap({ type: "object", "x-kubernetes-map-type": "atomic" }), true);
    assert.equal(isAtomicMap({ type: "object", "x-kubernetes-map-type": "granular" }), false);
    assert.equal(isAtomicMap({ type: "object" }), false);
    assert.equal(isAtomicMap(undefined), false);
  });
});
