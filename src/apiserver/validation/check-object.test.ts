/** Type, constraint and unknown-field checks, with kube's messages. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { builtinSchemas, customResourceSchema } from "../schemas/index.js";
import { checkObject } from "./check-object.js";

const cronTab = customResourceSchema(
  { group: "stable.example.com", version: "v1", kind: "CronTab" },
  {
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: {
          cronSpec: { type: "string", pattern: "^\\S+( \\S+){4}$" },
          replicas: { type: "integer", minimum: 1, maximum: 10 },
          image: { type: "string", maxLength: 5, minLength: 2 },
          mode: { type: "string", enum: ["a", "b"] },
          port: { "x-kubernetes-int-or-string": true },
          items: {
            type: "array",
            maxItems: 3,
            items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
          tags: { type: "object", additionalProperties: { type: "string" } },
          free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          note: { type: "string", nullable: true },
          ratio: { type: "number" },
          when: { type: "string", format: "date-time" },
        },
        required: ["cronSpec"],
      },
    },
  },
);

function cr(spec: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown {
  return {
    apiVersion: "stable.example.com/v1",
    kind: "CronTab",
    metadata: { name: "x" },
    spec: { cronSpec: "* * * * *", ...spec },
    ...extra,
  };
}

function messages(obj: unknown, schema: Schema = cronTab): string[] {
  return checkObject(obj, schema, { strict: true }).errors.map(fieldErrorMessage);
}

describe("checkObject types", () => {
  it("accepts a valid object", () => {
    assert.deepEqual(checkObject(cr({ replicas: 3 }), cronTab, { strict: true }), {
      errors: [],
      unknownFields: [],
    });
  });

  it("reports a wrong JSON type as kube does for CRDs", () => {
    const { errors } = checkObject(cr({ replicas: "3" }), cronTab, { strict: true });
    assert.deepEqual(errors, [
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.replicas",
        detail: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      },
    ]);
  });

  it("names list items with [i] and map values with .key", () => {
    assert.deepEqual(messages(cr({ items: [{ name: "a" }, { name: 5 }], tags: { k: true } })), [
      'spec.items[1].name: Invalid value: "integer": spec.items[1].name in body must be of type string: "integer"',
      'spec.tags.k: Invalid value: "boolean": spec.tags.k in body must be of type string: "boolean"',
    ]);
  });

  it("accepts integers for numbers and whole numbers for integers, not floats", () => {
    assert.deepEqual(messages(cr({ ratio: 2, replicas: 2.0 })), []);
    assert.deepEqual(messages(cr({ replicas: 2.5 })), [
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
    ]);
  });

  it("accepts both for int-or-string and reports kube's anyOf failure otherwise", () => {
    assert.deepEqual(messages(cr({ port: 80 })), []);
    assert.deepEqual(messages(cr({ port: "http" })), []);
    assert.deepEqual(messages(cr({ port: true })), [
      'Invalid value: "": "spec.port" must validate at least one schema (anyOf)',
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer: "boolean"',
    ]);
  });

  it("allows null where nullable and treats other null fields as absent", () => {
    assert.deepEqual(messages(cr({ note: null, image: null })), []);
    assert.deepEqual(messages(cr({ cronSpec: null })), ["spec.cronSpec: Required value"]);
    assert.deepEqual(messages(cr({ items: [null] })), [
      'spec.items[0]: Invalid value: "null": spec.items[0] in body must be of type object: "null"',
    ]);
  });

  it("reports an object where a scalar belongs, and does not descend into it", () => {
    assert.deepEqual(messages(cr({ replicas: { a: 1 } })), [
      'spec.replicas: Invalid value: "object": spec.replicas in body must be of type integer: "object"',
    ]);
  });
});

describe("checkObject constraints", () => {
  it("reports enum, pattern, bounds and lengths in kube's words, in document order", () => {
    assert.deepEqual(messages(cr({ mode: "c", cronSpec: "bad", replicas: 0, image: "toolong" })), [
      "spec.cronSpec: Invalid value: \"bad\": spec.cronSpec in body should match '^\\S+( \\S+){4}$'",
      'spec.mode: Unsupported value: "c": supported values: "a", "b"',
      "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
      "spec.image: Too long: may not be more than 5 bytes",
    ]);
    assert.deepEqual(messages(cr({ replicas: 11, image: "a" })), [
      "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
      'spec.image: Invalid value: "a": spec.image in body should be at least 2 chars long',
    ]);
  });

  it("reports required fields and too many items", () => {
    const obj = cr({ items: [{}, { name: "b" }, { name: "c" }, { name: "d" }] });
    assert.deepEqual(messages(obj), [
      "spec.items: Too many: 4: must have at most 3 items",
      "spec.items[0].name: Required value",
    ]);
    assert.deepEqual(messages({ apiVersion: "v", kind: "CronTab", metadata: {}, spec: {} }), [
      "spec.cronSpec: Required value",
    ]);
  });

  it("checks date-time formats", () => {
    assert.deepEqual(messages(cr({ when: "2024-01-02T03:04:05Z" })), []);
    assert.deepEqual(messages(cr({ when: "yesterday" })), [
      'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
    ]);
  });

  it("does not count a defaulted field as missing", () => {
    const schema: Schema = {
      type: "object",
      properties: { a: { type: "string", default: "x" } },
      required: ["a"],
    };
    assert.deepEqual(messages({}, schema), []);
  });
});

describe("checkObject unknown fields", () => {
  it("collects unknown fields as dotted paths, metadata first, then sorted", () => {
    const obj = cr(
      { zeta: 1, alpha: { deep: 1 }, items: [{ name: "a", extra: 1 }] },
      { metadata: { name: "x", bogus: 1 }, top: true },
    );
    const { errors, unknownFields } = checkObject(obj, cronTab, { strict: true });
    assert.deepEqual(errors, []);
    assert.deepEqual(unknownFields, [
      "metadata.bogus",
      "spec.alpha",
      "spec.items[0].extra",
      "spec.zeta",
      "top",
    ]);
  });

  it("collects nothing with strict: false (fieldValidation=Ignore)", () => {
    const obj = cr({ zeta: 1 }, { top: true });
    assert.deepEqual(checkObject(obj, cronTab, { strict: false }).unknownFields, []);
  });

  it("stops at x-kubernetes-preserve-unknown-fields and map values", () => {
    const obj = cr({ free: { anything: { goes: [1] } }, tags: { any: "key" } });
    assert.deepEqual(checkObject(obj, cronTab, { strict: true }).unknownFields, []);
  });

  it("knows apiVersion, kind and metadata at the root even without a schema for them", () => {
    const schema: Schema = { type: "object", properties: { spec: { type: "object" } } };
    const obj = { apiVersion: "v1", kind: "X", metadata: { a: 1 }, spec: { b: 1 } };
    assert.deepEqual(checkObject(obj, schema, { strict: true }).unknownFields, ["spec.b"]);
  });

  it("checks built-in kinds: ConfigMap data must be strings, unknown fields found", () => {
    const schema = builtinSchemas["/v1/ConfigMap"]!;
    const obj = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", labels: { a: "b" }, ownerReferences: [{ uid: "u", extra: 1 }] },
      data: { n: 1 },
      binaryData: { b: "not base64!" },
      spec: {},
    };
    const { errors, unknownFields } = checkObject(obj, schema, { strict: true });
    assert.deepEqual(errors.map(fieldErrorMessage), [
      "metadata.ownerReferences[0].apiVersion: Required value",
      "metadata.ownerReferences[0].kind: Required value",
      "metadata.ownerReferences[0].name: Required value",
      'data.n: Invalid value: "integer": data.n in body must be of type string: "integer"',
      'binaryData.b: Invalid value: "not base64!": binaryData.b in body must be of type byte: "not base64!"',
    ]);
    assert.deepEqual(unknownFields, ["metadata.ownerReferences[0].extra", "spec"]);
  });

  it("reports duplicates in list-type set and map lists, but not in metadata", () => {
    const schema: Schema = {
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
        ports: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, port: { type: "integer" } },
          },
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
        },
        metadata: builtinSchemas["/v1/ConfigMap"]!.properties!.metadata!,
      },
    };
    const obj = {
      metadata: { finalizers: ["a", "a"] },
      tags: ["a", "b", "a"],
      ports: [
        { name: "http", port: 80 },
        { name: "http", port: 81 },
      ],
    };
    assert.deepEqual(messages(obj, schema), [
      'tags[2]: Duplicate value: "a"',
      'ports[1]: Duplicate value: map[string]interface {}{"name":"http"}',
    ]);
  });
});
