/** Pruning of unknown fields and non-nullable nulls. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../api/index.js";
import { builtinSchemas } from "../schemas/index.js";
import { pruneUnknownFields } from "./prune.js";

const schema: Schema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        keep: { type: "string" },
        list: { type: "array", items: { type: "object", properties: { a: { type: "integer" } } } },
        map: {
          type: "object",
          additionalProperties: { type: "object", properties: { v: { type: "string" } } },
        },
        free: {
          type: "object",
          "x-kubernetes-preserve-unknown-fields": true,
          properties: { known: { type: "object", properties: { x: { type: "string" } } } },
        },
        anything: { type: "object", additionalProperties: true },
        withDefault: { type: "string", default: "d" },
        nullable: { type: "string", nullable: true },
        embedded: {
          type: "object",
          "x-kubernetes-embedded-resource": true,
          properties: { spec: { type: "object" } },
        },
      },
    },
  },
};

describe("pruneUnknownFields", () => {
  it("drops unknown fields at every level and keeps known ones", () => {
    const obj = {
      apiVersion: "v1",
      kind: "K",
      metadata: { name: "n" },
      extra: 1,
      spec: {
        keep: "k",
        drop: 2,
        list: [{ a: 1, b: 2 }],
        map: { x: { v: "1", w: "2" } },
      },
    };
    assert.deepEqual(pruneUnknownFields(obj, schema), {
      apiVersion: "v1",
      kind: "K",
      metadata: { name: "n" },
      spec: { keep: "k", list: [{ a: 1 }], map: { x: { v: "1" } } },
    });
  });

  it("keeps unknown fields under preserve-unknown-fields but still prunes known children", () => {
    const obj = {
      spec: { free: { any: { deep: 1 }, known: { x: "1", y: 2 } }, anything: { q: [1] } },
    };
    assert.deepEqual(pruneUnknownFields(obj, schema), {
      spec: { free: { any: { deep: 1 }, known: { x: "1" } }, anything: { q: [1] } },
    });
  });

  it("keeps apiVersion/kind/metadata of embedded resources", () => {
    const obj = {
      spec: { embedded: { apiVersion: "v1", kind: "Pod", metadata: { a: 1 }, spec: {}, x: 1 } },
    };
    assert.deepEqual(pruneUnknownFields(obj, schema), {
      spec: { embedded: { apiVersion: "v1", kind: "Pod", metadata: { a: 1 }, spec: {} } },
    });
  });

  it("drops non-nullable nulls without default, keeps the rest for defaulting", () => {
    const obj = { spec: { keep: null, withDefault: null, nullable: null } };
    assert.deepEqual(pruneUnknownFields(obj, schema), {
      spec: { withDefault: null, nullable: null },
    });
  });

  it("returns a copy and leaves the input alone", () => {
    const obj = { spec: { keep: "k", drop: 1, free: { a: { b: 1 } } } };
    const out = pruneUnknownFields(obj, schema);
    assert.deepEqual(obj.spec.drop, 1);
    (out.spec.free.a as { b: number }).b = 2;
    assert.equal(obj.spec.free.a.b, 1);
  });

  it("prunes unknown metadata fields of built-in kinds", () => {
    const cm = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", bogus: 1 },
      data: { a: "1" },
    };
    assert.deepEqual(pruneUnknownFields(cm, builtinSchemas["/v1/ConfigMap"]!), {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c" },
      data: { a: "1" },
    });
  });
});

describe("pruneUnknownFields copies", () => {
  const open: Schema = {
    type: "object",
    properties: {
      spec: {
        type: "object",
        "x-kubernetes-preserve-unknown-fields": true,
        properties: { known: { type: "object", properties: { a: { type: "string" } } } },
      },
      map: { type: "object", additionalProperties: { type: "object", properties: { v: {} } } },
      any: { type: "object", additionalProperties: true },
    },
  };

  it("copies preserved and additionalProperties subtrees rather than sharing them", () => {
    const obj = {
      spec: { free: { deep: [{ x: 1 }] }, known: { a: "1", b: 2 } },
      map: { k: { v: [1], w: 2 } },
      any: { k: { deep: { x: 1 } } },
    };
    const out = pruneUnknownFields(obj, open);
    assert.deepEqual(out, {
      spec: { free: { deep: [{ x: 1 }] }, known: { a: "1" } },
      map: { k: { v: [1] } },
      any: { k: { deep: { x: 1 } } },
    });
    assert.notEqual(out.spec.free.deep[0], obj.spec.free.deep[0]);
    assert.notEqual(out.map.k.v, obj.map.k.v);
    assert.notEqual(out.any.k.deep, obj.any.k.deep);
  });

  it("leaves out a decoded __proto__ key where fields are pruned", () => {
    const obj = JSON.parse('{"__proto__":{"spec":{"x":1}},"spec":{"known":{"a":"1"}}}');
    const out = pruneUnknownFields(obj, open);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.keys(out), ["spec"]);
    assert.equal(JSON.stringify(out), '{"spec":{"known":{"a":"1"}}}');
  });

  it("keeps a decoded __proto__ key as a field, not as the copy's prototype", () => {
    const obj = JSON.parse('{"spec":{"free":{"__proto__":{"polluted":true}}}}');
    const out = pruneUnknownFields(obj, open);
    assert.equal(Object.getPrototypeOf(out.spec.free), Object.prototype);
    assert.deepEqual(Object.keys(out.spec.free), ["__proto__"]);
    assert.equal(JSON.stringify(out), JSON.stringify(obj));
  });
});
