/** Evaluating a policy: validations, variables, messages, match conditions, failurePolicy. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PolicySpec } from "./api-types.js";
import { toCel } from "./cel-values.js";
import { compilePolicy } from "./compiled-policy.js";
import { evaluatePolicy, type RequestVariables } from "./evaluate.js";

const deployment = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "shop", labels: { tier: "frontend" } },
  spec: { replicas: 3, template: { spec: { containers: [{ name: "c", image: "nginx:1" }] } } },
};

function vars(over: Partial<Record<keyof RequestVariables, unknown>> = {}): RequestVariables {
  const plain = {
    object: deployment,
    oldObject: null,
    request: { operation: "CREATE", namespace: "shop", userInfo: { username: "alice" } },
    namespaceObject: { metadata: { name: "shop", labels: { env: "prod" } } },
    ...over,
  };
  return {
    object: toCel(plain.object),
    oldObject: toCel(plain.oldObject),
    request: toCel(plain.request),
    namespaceObject: toCel(plain.namespaceObject),
  };
}

const spec = (over: Partial<PolicySpec>): PolicySpec => ({
  failurePolicy: "Fail",
  validations: [],
  ...over,
});

const evaluate = (s: PolicySpec, v = vars(), params: unknown = null) =>
  evaluatePolicy(compilePolicy(s), v, params);

describe("evaluatePolicy", () => {
  it("passes when every validation is true and fails the false ones", () => {
    assert.deepEqual(
      evaluate(spec({ validations: [{ expression: "object.spec.replicas <= 5" }] })),
      [],
    );
    assert.deepEqual(
      evaluate(
        spec({
          validations: [
            {
              expression: "object.spec.replicas <= 2",
              message: "too many replicas",
              reason: "Forbidden",
            },
            { expression: "request.userInfo.username == 'alice'" },
            { expression: " object.metadata.name == 'api' " },
          ],
        }),
      ),
      [
        { message: "too many replicas", reason: "Forbidden" },
        { message: "failed expression: object.metadata.name == 'api'", reason: "Invalid" },
      ],
    );
  });

  it("gives CEL the namespace object, the old object and params", () => {
    const checks = [
      "namespaceObject.metadata.labels.env == 'prod'",
      "oldObject == null",
      "params.maxReplicas >= object.spec.replicas",
    ];
    const s = spec({
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      validations: checks.map((expression) => ({ expression })),
    });
    assert.deepEqual(evaluate(s, vars(), { maxReplicas: 3 }), []);
    assert.equal(evaluate(s, vars(), { maxReplicas: 2 }).length, 1);
  });

  it("evaluates variables lazily: an unused broken variable does no harm", () => {
    const s = spec({
      variables: [
        { name: "containers", expression: "object.spec.template.spec.containers" },
        { name: "broken", expression: "object.spec.nothing.here" },
        { name: "images", expression: "variables.containers.map(c, c.image)" },
      ],
      validations: [{ expression: "variables.images.all(i, i.startsWith('nginx'))" }],
    });
    assert.deepEqual(evaluate(s), []);
    const uses = spec({ ...s, validations: [{ expression: "variables.broken == 1" }] });
    const [f] = evaluate(uses);
    assert.match(f!.message, /^expression 'variables\.broken == 1' resulted in error: /);
  });

  it("evaluates a variable only when reached, and at most once per evaluation", () => {
    const compiled = compilePolicy(
      spec({
        variables: [
          { name: "replicas", expression: "object.spec.replicas" },
          { name: "unused", expression: "1" },
        ],
        validations: [
          { expression: "variables.replicas > 1" },
          { expression: "variables.replicas < 10 && variables.replicas != 4" },
        ],
      }),
    );
    const calls = [0, 0];
    compiled.variables.forEach((v, i) => {
      const c = v.compiled;
      if (!c.ok) throw new Error(c.error);
      const program = c.program;
      c.program = (activation) => {
        calls[i]!++;
        return program(activation);
      };
    });
    assert.deepEqual(evaluatePolicy(compiled, vars(), null), []);
    assert.deepEqual(calls, [1, 0]);
  });

  it("prefers a usable messageExpression, then message, then the expression", () => {
    const failing = (messageExpression: string, message?: string) =>
      evaluate(
        spec({
          validations: [
            { expression: "false", messageExpression, ...(message ? { message } : {}) },
          ],
        }),
      )[0]!.message;
    assert.equal(
      failing("'replicas ' + string(object.spec.replicas) + ' is too many'", "static"),
      "replicas 3 is too many",
    );
    assert.equal(failing("  ' padded '  "), "padded");
    assert.equal(failing("object.nope.x", "static"), "static", "an error falls back");
    assert.equal(failing("'two\\nlines'", "static"), "static", "multi-line falls back");
    assert.equal(failing("'   '", "static"), "static", "blank falls back");
    assert.equal(failing("42", "static"), "static", "a non-string falls back");
    assert.equal(failing("object.nope.x"), "failed expression: false");
  });

  it("applies failurePolicy to evaluation errors and non-bool results", () => {
    const broken = [{ expression: "object.spec.missing.x == 1" }, { expression: "'text'" }];
    const fail = evaluate(spec({ validations: broken }));
    assert.equal(fail.length, 2);
    assert.match(
      fail[0]!.message,
      /^expression 'object\.spec\.missing\.x == 1' resulted in error: /,
    );
    assert.equal(fail[0]!.reason, "Invalid");
    assert.match(fail[1]!.message, /resulted in error: no such overload: want bool, got string$/);
    assert.deepEqual(evaluate(spec({ failurePolicy: "Ignore", validations: broken })), []);
  });

  it("skips the policy when a match condition is false, before any validation", () => {
    const s = spec({
      matchConditions: [
        { name: "is-frontend", expression: "object.metadata.labels.tier == 'frontend'" },
        { name: "not-alice", expression: "request.userInfo.username != 'alice'" },
      ],
      validations: [{ expression: "false" }],
    });
    assert.deepEqual(evaluate(s), []);
    const bob = vars({ request: { operation: "CREATE", userInfo: { username: "bob" } } });
    assert.equal(evaluate(s, bob).length, 1);
  });

  it("treats match condition errors per failurePolicy, unless another condition is false", () => {
    const conditions = [
      { name: "a", expression: "object.nope.a" },
      { name: "b", expression: "object.nope.b" },
    ];
    const fail = evaluate(
      spec({ matchConditions: conditions, validations: [{ expression: "true" }] }),
    );
    assert.equal(fail.length, 1);
    assert.match(
      fail[0]!.message,
      /^\[expression 'object\.nope\.a' resulted in error: .*, expression 'object\.nope\.b' resulted in error: .*\]$/,
    );
    assert.deepEqual(
      evaluate(
        spec({
          failurePolicy: "Ignore",
          matchConditions: conditions,
          validations: [{ expression: "false" }],
        }),
      ),
      [],
    );
    const withFalse = [...conditions, { name: "c", expression: "false" }];
    assert.deepEqual(
      evaluate(spec({ matchConditions: withFalse, validations: [{ expression: "false" }] })),
      [],
    );
  });

  it("reports a stored expression that no longer compiles as an error", () => {
    const [f] = evaluate(spec({ validations: [{ expression: "object.spec ==" }] }));
    assert.match(f!.message, /^compilation error: compilation failed: ERROR: <input>/);
  });
});
