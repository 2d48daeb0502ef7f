/** Create/update checks of policies and bindings, after defaulting, in kube's words. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../../api/index.js";
import { fieldErrorMessage } from "../../../api/index.js";
import { bindingResourceType, policyResourceType } from "./resource-types.js";

function messages(kind: "policy" | "binding", spec: Record<string, unknown>): string[] {
  const t = kind === "policy" ? policyResourceType : bindingResourceType;
  const obj: KubeObject = { apiVersion: "", kind: t.kind, metadata: { name: "p" }, spec };
  t.prepareForCreate?.(obj);
  return (t.validate?.(obj, undefined) ?? []).map(fieldErrorMessage);
}

const rules = [
  { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] },
];
const policy = (over: Record<string, unknown> = {}) =>
  messages("policy", {
    matchConstraints: { resourceRules: rules },
    validations: [{ expression: "true" }],
    ...over,
  });
const binding = (over: Record<string, unknown> = {}) =>
  messages("binding", { policyName: "p", validationActions: ["Deny"], ...over });

describe("ValidatingAdmissionPolicy checks", () => {
  it("accepts a minimal policy and fills kube's defaults", () => {
    assert.deepEqual(policy(), []);
    const obj: KubeObject = {
      apiVersion: "",
      kind: "ValidatingAdmissionPolicy",
      metadata: { name: "p" },
      spec: { matchConstraints: { resourceRules: structuredClone(rules) } },
    };
    policyResourceType.prepareForCreate?.(obj);
    assert.deepEqual(obj.spec, {
      failurePolicy: "Fail",
      matchConstraints: {
        matchPolicy: "Equivalent",
        namespaceSelector: {},
        objectSelector: {},
        resourceRules: [{ ...rules[0], scope: "*" }],
      },
    });
  });

  it("names the field of every expression that does not compile", () => {
    assert.deepEqual(
      policy({
        matchConditions: [{ name: "m", expression: "nope" }],
        variables: [{ name: "v", expression: "object.x +" }],
        validations: [
          { expression: "object.foo ==" },
          { expression: "true", messageExpression: "variables.w" },
        ],
      }).map((m) => m.split("\n")[0]),
      [
        `spec.matchConditions[0].expression: Invalid value: "nope": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')`,
        `spec.variables[0].expression: Invalid value: "object.x +": compilation failed: ERROR: <input>:1:10: Syntax error: found + but expecting end of input`,
        `spec.validations[0].expression: Invalid value: "object.foo ==": compilation failed: ERROR: <input>:1:12: Syntax error: found = but expecting end of input`,
        `spec.validations[1].messageExpression: Invalid value: "variables.w": compilation failed: ERROR: <input>:1:10: undefined field 'w'`,
      ],
    );
  });

  it("requires matchConstraints with resource rules, and validations or audit annotations", () => {
    assert.deepEqual(messages("policy", { validations: [{ expression: "true" }] }), [
      "spec.matchConstraints: Required value",
    ]);
    assert.deepEqual(policy({ matchConstraints: {} }), [
      "spec.matchConstraints.resourceRules: Required value",
    ]);
    assert.deepEqual(policy({ validations: [] }), [
      "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
      "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item",
    ]);
    assert.deepEqual(
      policy({ validations: [], auditAnnotations: [{ key: "k", valueExpression: "'v'" }] }),
      [],
    );
  });

  it("checks enumerations, messages and names", () => {
    assert.deepEqual(
      policy({
        failurePolicy: "Sometimes",
        validations: [{ expression: "true", message: "a\nb", reason: "Teapot" }],
        variables: [{ name: "not-an-identifier", expression: "1" }],
      }),
      [
        'spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
        'spec.variables[0].name: Invalid value: "not-an-identifier": name is not a valid CEL identifier',
        'spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks',
        'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
      ],
    );
  });

  it("checks resource rules and selectors", () => {
    const bad = [
      {
        apiGroups: [],
        apiVersions: ["*", "v1"],
        operations: ["CREATE", "PATCH"],
        resources: ["*/*", "pods"],
        scope: "Everywhere",
      },
    ];
    assert.deepEqual(
      policy({
        matchConstraints: {
          resourceRules: bad,
          objectSelector: { matchExpressions: [{ key: "a", operator: "In" }] },
        },
      }),
      [
        "spec.matchConstraints.objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'spec.matchConstraints.resourceRules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
        "spec.matchConstraints.resourceRules[0].apiGroups: Required value",
        `spec.matchConstraints.resourceRules[0].apiVersions: Invalid value: []string{"*", "v1"}: if '*' is present, must not specify other API versions`,
        `spec.matchConstraints.resourceRules[0].resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`,
        'spec.matchConstraints.resourceRules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
      ],
    );
  });
});

describe("ValidatingAdmissionPolicyBinding checks", () => {
  it("accepts a binding and requires a policy name and actions", () => {
    assert.deepEqual(binding(), []);
    assert.deepEqual(binding({ policyName: "", validationActions: [] }), [
      "spec.policyName: Required value",
      "spec.validationActions: Required value: at least one validation action is required",
    ]);
  });

  it("refuses Deny with Warn, duplicates and unknown actions", () => {
    assert.deepEqual(binding({ validationActions: ["Deny", "Warn"] }), [
      `spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)`,
    ]);
    assert.deepEqual(binding({ validationActions: ["Audit", "Audit", "Log"] }), [
      'spec.validationActions[1]: Duplicate value: "Audit"',
      'spec.validationActions[2]: Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"',
    ]);
  });

  it("checks paramRef: name or selector, and the not-found action", () => {
    assert.deepEqual(
      binding({ paramRef: { name: "limits", parameterNotFoundAction: "Deny" } }),
      [],
    );
    assert.deepEqual(binding({ paramRef: {} }), [
      "spec.paramRef: Required value: one of name or selector must be specified",
      "spec.paramRef.parameterNotFoundAction: Required value",
    ]);
    assert.deepEqual(
      binding({
        paramRef: { name: "a", selector: {}, parameterNotFoundAction: "Maybe" },
      }),
      [
        "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
        "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
        'spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"',
      ],
    );
  });

  it("defaults and checks matchResources like a policy's", () => {
    const obj: KubeObject = {
      apiVersion: "",
      kind: "ValidatingAdmissionPolicyBinding",
      metadata: { name: "b" },
      spec: { policyName: "p", validationActions: ["Warn"], matchResources: {} },
    };
    bindingResourceType.prepareForCreate?.(obj);
    assert.deepEqual((obj.spec as { matchResources: unknown }).matchResources, {
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
    });
    assert.deepEqual(
      binding({
        matchResources: {
          namespaceSelector: { matchExpressions: [{ key: "a", operator: "Near" }] },
        },
      }),
      [
        'spec.matchResources.namespaceSelector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
      ],
    );
  });
});
