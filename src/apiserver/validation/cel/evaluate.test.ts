/** Running CRD validation rules on objects: immutability, limits, lists, messages, reasons. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../../api/index.js";
import { fieldErrorMessage } from "../../../api/index.js";
import { evaluateRules } from "./evaluate.js";
import { buildRuleTree } from "./rule-tree.js";

type Rules = NonNullable<Schema["x-kubernetes-validations"]>;

function objectSchema(
  specProps: Record<string, Schema>,
  specRules: Rules = [],
  rootRules: Rules = [],
): Schema {
  return {
    type: "object",
    ...(rootRules.length ? { "x-kubernetes-validations": rootRules } : {}),
    properties: {
      spec: {
        type: "object",
        properties: specProps,
        ...(specRules.length ? { "x-kubernetes-validations": specRules } : {}),
      },
    },
  };
}

function run(schema: Schema, obj: unknown, old?: unknown): string[] {
  const tree = buildRuleTree(schema);
  assert.ok(tree);
  return evaluateRules(tree, obj, old).map(fieldErrorMessage);
}

const immutableImage = objectSchema({
  image: {
    type: "string",
    "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "Value is immutable" }],
  },
  replicas: { type: "integer", "x-kubernetes-validations": [{ rule: "self <= 10" }] },
});

describe("evaluateRules", () => {
  it("has no tree for schemas without rules", () => {
    assert.equal(
      buildRuleTree({ type: "object", properties: { spec: { type: "object" } } }),
      undefined,
    );
  });

  it("makes a field immutable with self == oldSelf, in kube's words", () => {
    const v1 = { spec: { image: "nginx:1", replicas: 1 } };
    assert.deepEqual(run(immutableImage, v1), []);
    assert.deepEqual(run(immutableImage, v1, v1), []);
    assert.deepEqual(run(immutableImage, { spec: { image: "nginx:2", replicas: 1 } }, v1), [
      'spec.image: Invalid value: "string": Value is immutable',
    ]);
  });

  it("skips transition rules when there is no old value", () => {
    assert.deepEqual(run(immutableImage, { spec: { image: "a" } }, { spec: {} }), []);
  });

  it("uses `failed rule: <rule>` without a message, with integers as CEL ints", () => {
    assert.deepEqual(run(immutableImage, { spec: { replicas: 11 } }), [
      'spec.replicas: Invalid value: "integer": failed rule: self <= 10',
    ]);
  });

  it("ratchets unchanged values that already failed a rule", () => {
    const old = { spec: { replicas: 11, image: "a" } };
    assert.deepEqual(run(immutableImage, { spec: { replicas: 11, image: "a" } }, old), []);
    assert.equal(run(immutableImage, { spec: { replicas: 12, image: "a" } }, old).length, 1);
  });

  it("checks size limits and list rules", () => {
    const schema = objectSchema({
      tags: {
        type: "array",
        items: { type: "string", "x-kubernetes-validations": [{ rule: "size(self) <= 6" }] },
        "x-kubernetes-validations": [
          { rule: "size(self) <= 2", message: "at most two tags" },
          { rule: "self.all(t, t != 'latest')", message: "no latest tag" },
        ],
      },
    });
    assert.deepEqual(run(schema, { spec: { tags: ["a", "b"] } }), []);
    assert.deepEqual(run(schema, { spec: { tags: ["a", "latest", "toolong"] } }), [
      'spec.tags: Invalid value: "array": at most two tags',
      'spec.tags: Invalid value: "array": no latest tag',
      'spec.tags[2]: Invalid value: "string": failed rule: size(self) <= 6',
    ]);
  });

  it("evaluates messageExpression, falling back to the message when it fails", () => {
    const schema = objectSchema({}, [
      {
        rule: "self.min <= self.max",
        messageExpression: "'min ' + string(self.min) + ' exceeds max ' + string(self.max)",
      },
      { rule: "self.min > 0", message: "min must be positive", messageExpression: "self.nope" },
    ]);
    const spec = schema.properties!.spec!;
    spec.properties = {
      min: { type: "integer" },
      max: { type: "integer" },
      nope: { type: "string" },
    };
    assert.deepEqual(run(schema, { spec: { min: 0, max: -1 } }), [
      'spec: Invalid value: "object": min 0 exceeds max -1',
      'spec: Invalid value: "object": min must be positive',
    ]);
  });

  it("honours reason and fieldPath", () => {
    const schema = objectSchema({ a: { type: "string" }, b: { type: "string" } }, [
      {
        rule: "has(self.a)",
        reason: "FieldValueRequired",
        fieldPath: ".a",
        message: "a is required",
      },
      {
        rule: "!has(self.b)",
        reason: "FieldValueForbidden",
        fieldPath: ".b",
        message: "b is not allowed",
      },
      { rule: "false", reason: "FieldValueDuplicate" },
    ]);
    assert.deepEqual(run(schema, { spec: { b: "x" } }), [
      "spec.a: Required value: a is required",
      "spec.b: Forbidden: b is not allowed",
      'spec: Duplicate value: "object"',
    ]);
  });

  it("reports evaluation errors with the rule", () => {
    const schema = objectSchema({ a: { type: "string" } }, [{ rule: "self.a == 'x'" }]);
    assert.deepEqual(run(schema, { spec: {} }), [
      "spec: Invalid value: \"object\": no such key: a evaluating rule: self.a == 'x'",
    ]);
  });

  it("names the root by kube's nil path, and sees metadata.name there", () => {
    const schema = objectSchema({}, [], [{ rule: "self.metadata.name.startsWith('a')" }]);
    assert.deepEqual(run(schema, { metadata: { name: "abc" }, spec: {} }), []);
    assert.deepEqual(run(schema, { metadata: { name: "xyz" }, spec: {} }), [
      "<nil>: Invalid value: \"object\": failed rule: self.metadata.name.startsWith('a')",
    ]);
  });

  it("gives optionalOldSelf rules an optional oldSelf, also on create", () => {
    const schema = objectSchema({
      replicas: {
        type: "integer",
        "x-kubernetes-validations": [
          {
            rule: "!oldSelf.hasValue() || self >= oldSelf.value()",
            optionalOldSelf: true,
            message: "may not scale down",
          },
          { rule: "oldSelf.orValue(0) < 100", optionalOldSelf: true },
        ],
      },
    });
    assert.deepEqual(run(schema, { spec: { replicas: 3 } }), []);
    assert.deepEqual(run(schema, { spec: { replicas: 2 } }, { spec: { replicas: 3 } }), [
      'spec.replicas: Invalid value: "integer": may not scale down',
    ]);
  });

  it("correlates items of map lists by key for transition rules", () => {
    const schema = objectSchema({
      ports: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        items: {
          type: "object",
          properties: { name: { type: "string" }, port: { type: "integer" } },
          "x-kubernetes-validations": [
            { rule: "self.port == oldSelf.port", message: "port is immutable" },
          ],
        },
      },
    });
    const old = {
      spec: {
        ports: [
          { name: "a", port: 1 },
          { name: "b", port: 2 },
        ],
      },
    };
    assert.deepEqual(
      run(
        schema,
        {
          spec: {
            ports: [
              { name: "b", port: 2 },
              { name: "a", port: 1 },
            ],
          },
        },
        old,
      ),
      [],
    );
    assert.deepEqual(
      run(
        schema,
        {
          spec: {
            ports: [
              { name: "b", port: 3 },
              { name: "c", port: 9 },
            ],
          },
        },
        old,
      ),
      ['spec.ports[0]: Invalid value: "object": port is immutable'],
    );
  });

  it("treats int-or-string values as int or string", () => {
    const schema = objectSchema({
      port: {
        "x-kubernetes-int-or-string": true,
        "x-kubernetes-validations": [
          { rule: "type(self) == string ? self.matches('^[a-z]+$') : self > 0" },
        ],
      },
    });
    assert.deepEqual(run(schema, { spec: { port: 80 } }), []);
    assert.deepEqual(run(schema, { spec: { port: "http" } }), []);
    assert.equal(run(schema, { spec: { port: 0 } }).length, 1);
    assert.equal(run(schema, { spec: { port: "HTTP" } }).length, 1);
  });
});
