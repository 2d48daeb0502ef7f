/** Compiling CRD validation rules: what compiles, and kube's words for what does not. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../../api/index.js";
import { compileRule } from "./compile-rule.js";

const spec: Schema = {
  type: "object",
  properties: {
    image: { type: "string" },
    replicas: { type: "integer" },
    ratio: { type: "number" },
    tags: { type: "array", items: { type: "string" } },
    labels: { type: "object", additionalProperties: { type: "string" } },
    "max-surge": { type: "string" },
    port: { "x-kubernetes-int-or-string": true },
  },
};

function errorsOf(rule: string, extra: Record<string, unknown> = {}, schema = spec) {
  return compileRule({ rule, ...extra }, schema, false).errors;
}

describe("compileRule", () => {
  it("compiles rules over fields, lists, maps and the kube library", () => {
    for (const rule of [
      "self.replicas >= 0",
      "self.image == oldSelf.image",
      "has(self.image) && self.image.startsWith('nginx')",
      "size(self.tags) <= 3 && self.tags.all(t, t.matches('^[a-z]+$'))",
      "self.labels.all(k, self.labels[k] != '')",
      "self.tags.isSorted() && self.tags.exists_one(t, t == 'x') || true",
      "self.max__dash__surge.lowerAscii() == 'a'",
      "type(self.port) == int || type(self.port) == string",
      "self.ratio > 0.5",
    ]) {
      const result = compileRule({ rule }, spec, false);
      assert.deepEqual(result.errors, [], rule);
      assert.ok(result.compiled, rule);
    }
  });

  it("marks rules that read oldSelf as transition rules", () => {
    assert.equal(compileRule({ rule: "self == oldSelf" }, spec, false).compiled?.usesOldSelf, true);
    assert.equal(
      compileRule({ rule: "self.replicas > 1" }, spec, false).compiled?.usesOldSelf,
      false,
    );
  });

  it("reports syntax errors with position and caret, as cel-go", () => {
    const [e] = errorsOf("self.replicas >");
    assert.equal(e?.field, "rule");
    assert.match(e!.detail, /^compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
    assert.match(e!.detail, /\n \| self\.replicas >\n \| \.+\^$/);
  });

  it("reports undeclared references and unknown functions", () => {
    const [e] = errorsOf("foo == 1");
    assert.equal(
      e?.detail,
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^",
    );
    assert.match(
      errorsOf("self.image.frobnicate()")[0]!.detail,
      /undeclared reference to 'frobnicate'/,
    );
  });

  it("reports fields the schema does not declare", () => {
    const [e] = errorsOf("self.imagee == 'x'");
    assert.equal(
      e?.detail,
      "compilation failed: ERROR: <input>:1:5: undefined field 'imagee'\n | self.imagee == 'x'\n | ....^",
    );
    assert.match(
      errorsOf("self.image.size == 1")[0]!.detail,
      /type 'string' does not support field selection/,
    );
  });

  it("requires a bool result", () => {
    assert.deepEqual(errorsOf("self.replicas + 1"), [
      { field: "rule", detail: "cel expression must evaluate to a bool" },
    ]);
    assert.deepEqual(errorsOf("'text'"), [
      { field: "rule", detail: "cel expression must evaluate to a bool" },
    ]);
  });

  it("compiles messageExpression and requires a string", () => {
    const ok = compileRule(
      { rule: "self.replicas < 5", messageExpression: "'too many: ' + string(self.replicas)" },
      spec,
      false,
    );
    assert.ok(ok.compiled?.message);
    assert.deepEqual(errorsOf("self.replicas < 5", { messageExpression: "self.replicas" }), [
      { field: "messageExpression", detail: "must evaluate to string" },
    ]);
    assert.match(
      errorsOf("self.replicas < 5", { messageExpression: "'a' +" })[0]!.detail,
      /^messageExpression compilation failed: ERROR: <input>:1:\d+: Syntax error/,
    );
  });

  it("sees apiVersion, kind and metadata.name at a resource root only", () => {
    const root: Schema = { type: "object", properties: { spec } };
    assert.deepEqual(
      compileRule({ rule: "self.metadata.name.size() < 10" }, root, true).errors,
      [],
    );
    assert.deepEqual(compileRule({ rule: "self.kind == 'X'" }, root, true).errors, []);
    assert.match(
      compileRule({ rule: "self.metadata.labels.size() > 0" }, root, true).errors[0]!.detail,
      /undefined field 'labels'/,
    );
  });
});
