/**
 * The admissionregistration.k8s.io/v1 policy schemas: kube's fields, descriptions
 * on every property (for `kubectl explain`), and the list and map extensions that
 * server-side apply merges by.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../api/index.js";
import {
  validatingAdmissionPolicyBindingSchema as bindingSchema,
  validatingAdmissionPolicySchema as policySchema,
} from "./index.js";

function at(schema: Schema, path: string): Schema {
  let s: Schema | undefined = schema;
  for (const p of path.split(".")) s = p === "[]" ? s?.items : s?.properties?.[p];
  assert.ok(s, path);
  return s;
}

function walk(schema: Schema, visit: (s: Schema, path: string) => void, path = ""): void {
  visit(schema, path);
  for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v, visit, `${path}.${k}`);
  if (schema.items) walk(schema.items, visit, `${path}[]`);
}

describe("ValidatingAdmissionPolicy schemas", () => {
  for (const [kind, schema] of [
    ["ValidatingAdmissionPolicy", policySchema],
    ["ValidatingAdmissionPolicyBinding", bindingSchema],
  ] as const) {
    it(`${kind}: GVK, descriptions everywhere, no $ref and no defaults`, () => {
      assert.deepEqual(schema["x-kubernetes-group-version-kind"], [
        { group: "admissionregistration.k8s.io", version: "v1", kind },
      ]);
      walk(schema, (s, path) => {
        const stringItem = path.endsWith("[]") && s.type === "string";
        if (!path.startsWith(".metadata") && !stringItem)
          assert.ok(s.description, `${path} has a description`);
        assert.equal(s.$ref, undefined, path);
        assert.equal(s.default, undefined, path);
      });
    });
  }

  it("has the policy spec fields with kube's list types and merge keys", () => {
    assert.deepEqual(Object.keys(at(policySchema, "spec").properties ?? {}).sort(), [
      "auditAnnotations",
      "failurePolicy",
      "matchConditions",
      "matchConstraints",
      "paramKind",
      "validations",
      "variables",
    ]);
    assert.equal(at(policySchema, "spec.validations")["x-kubernetes-list-type"], "atomic");
    assert.deepEqual(at(policySchema, "spec.validations.[]").required, ["expression"]);
    assert.deepEqual(Object.keys(at(policySchema, "spec.validations.[]").properties ?? {}).sort(), [
      "expression",
      "message",
      "messageExpression",
      "reason",
    ]);
    for (const list of ["spec.matchConditions", "spec.variables"]) {
      const s = at(policySchema, list);
      assert.equal(s["x-kubernetes-list-type"], "map", list);
      assert.deepEqual(s["x-kubernetes-list-map-keys"], ["name"], list);
      assert.equal(s["x-kubernetes-patch-merge-key"], "name", list);
      assert.deepEqual(s.items?.required, ["name", "expression"], list);
    }
    assert.equal(at(policySchema, "status.conditions")["x-kubernetes-list-type"], "map");
    assert.equal(at(policySchema, "status.observedGeneration").format, "int64");
  });

  it("shares MatchResources, atomic, with its rules and selectors", () => {
    const constraints = at(policySchema, "spec.matchConstraints");
    const matchResources = at(bindingSchema, "spec.matchResources");
    for (const m of [constraints, matchResources]) {
      assert.equal(m["x-kubernetes-map-type"], "atomic");
      assert.deepEqual(Object.keys(m.properties ?? {}).sort(), [
        "excludeResourceRules",
        "matchPolicy",
        "namespaceSelector",
        "objectSelector",
        "resourceRules",
      ]);
    }
    const rule = at(constraints, "resourceRules.[]");
    assert.equal(rule["x-kubernetes-map-type"], "atomic");
    assert.deepEqual(Object.keys(rule.properties ?? {}).sort(), [
      "apiGroups",
      "apiVersions",
      "operations",
      "resourceNames",
      "resources",
      "scope",
    ]);
    const selector = at(constraints, "objectSelector");
    assert.equal(selector["x-kubernetes-map-type"], "atomic");
    assert.deepEqual(at(selector, "matchExpressions.[]").required, ["key", "operator"]);
    assert.deepEqual(at(selector, "matchLabels").additionalProperties, { type: "string" });
    assert.match(
      at(constraints, "namespaceSelector").description ?? "",
      /If the object itself is a namespace/,
    );
  });

  it("has the binding spec fields, validationActions a set", () => {
    assert.deepEqual(Object.keys(at(bindingSchema, "spec").properties ?? {}).sort(), [
      "matchResources",
      "paramRef",
      "policyName",
      "validationActions",
    ]);
    assert.equal(at(bindingSchema, "spec.validationActions")["x-kubernetes-list-type"], "set");
    const ref = at(bindingSchema, "spec.paramRef");
    assert.equal(ref["x-kubernetes-map-type"], "atomic");
    assert.deepEqual(Object.keys(ref.properties ?? {}).sort(), [
      "name",
      "namespace",
      "parameterNotFoundAction",
      "selector",
    ]);
  });
});
