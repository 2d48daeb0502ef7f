/** Compiling policy CEL: what compiles, and kube's words (with caret) for what does not. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type CompileScope, compileExpression } from "./cel-compile.js";
import { toCel } from "./cel-values.js";

const scope: CompileScope = { hasParams: false, variables: [] };

function errorOf(expression: string, s: CompileScope = scope): string {
  const c = compileExpression(expression, s);
  assert.equal(c.ok, false, `${expression} should not compile`);
  return c.ok ? "" : c.error;
}

function run(expression: string, activation: Record<string, unknown>, s: CompileScope = scope) {
  const c = compileExpression(expression, s);
  if (!c.ok) throw new Error(c.error);
  return c.program(activation);
}

describe("compileExpression", () => {
  it("compiles the request variables, macros, type names and the strings extension", () => {
    for (const e of [
      "object.metadata.name == 'x'",
      "oldObject == null && request.operation == 'CREATE'",
      "namespaceObject.metadata.labels.all(k, k != '')",
      "[1, 2].exists(x, x > 1) && {'a': 1}.exists_one(k, k == 'a')",
      "type(object) == map && type(1) == int",
      "object.metadata.name.lowerAscii().startsWith('a')",
      "has(object.spec) ? size(object.spec) > 0 : true",
      "[1, 2].map(x, x * 2).filter(y, y > 2) == [4]",
    ])
      assert.equal(compileExpression(e, scope).ok, true, e);
  });

  it("reports a syntax error with its position, the line and a caret", () => {
    assert.equal(
      errorOf("object.foo =="),
      "compilation failed: ERROR: <input>:1:12: Syntax error: found = but expecting end of input\n | object.foo ==\n | ...........^",
    );
    assert.equal(
      errorOf("object.a == 1\n  || object.b.("),
      "compilation failed: ERROR: <input>:2:14: Syntax error: found . but expecting end of input\n |   || object.b.(\n | .............^",
    );
  });

  it("refuses undeclared identifiers and functions like cel-go's checker", () => {
    assert.equal(
      errorOf("foo == 1"),
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^",
    );
    assert.match(
      errorOf("object.x == 1 && frobnicate(object)"),
      /<input>:1:18: undeclared reference to 'frobnicate' \(in container ''\)/,
    );
    assert.match(errorOf("object.name.nosuch()"), /undeclared reference to 'nosuch'/);
    assert.match(errorOf("authorizer.group('').check('get')"), /'authorizer': not supported/);
  });

  it("declares params only for policies with a paramKind", () => {
    assert.match(errorOf("params.max > 1"), /undeclared reference to 'params'/);
    assert.equal(compileExpression("params.max > 1", { ...scope, hasParams: true }).ok, true);
  });

  it("knows which variables exist, and hides them from match conditions", () => {
    const s = { hasParams: false, variables: ["replicas"] };
    assert.equal(compileExpression("variables.replicas > 1", s).ok, true);
    assert.match(errorOf("variables.other > 1", s), /<input>:1:10: undefined field 'other'/);
    assert.match(
      errorOf("variables.replicas > 1", { ...s, noVariables: true }),
      /undeclared reference to 'variables'/,
    );
  });

  it("scopes comprehension variables to their macro", () => {
    assert.equal(compileExpression("[1].all(x, x > 0)", scope).ok, true);
    assert.match(errorOf("[1].all(x, x > 0) && x == 1"), /undeclared reference to 'x'/);
  });
});

describe("compiled programs", () => {
  it("see integral JSON numbers as int, like kube's CEL", () => {
    const object = toCel({ spec: { replicas: 3, ratio: 0.5 }, items: [1, 2] });
    assert.equal(run("object.spec.replicas + 1 == 4", { object }), true);
    assert.equal(run("object.spec.ratio * 2.0 == 1.0", { object }), true);
    assert.equal(run("size(object.items) == 2", { object }), true);
  });

  it("return errors as values, never throwing", () => {
    const r = run("object.spec.missing.x == 1", { object: toCel({ metadata: {} }) });
    assert.ok(r instanceof Error);
    assert.match((r as Error).message, /spec/);
  });
});
