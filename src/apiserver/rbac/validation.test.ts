/** kube's validation of RBAC objects, with its field paths and wording. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { binding, group, user } from "../../../test/support/fixtures/rbac.js";
import type { KubeObject } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { defaultBinding, validateBinding, validateRole } from "./validation.js";

const messages = (errors: { field: string; detail: string; reason: string }[]) =>
  errors.map(fieldErrorMessage);
const roleWith = (rules: unknown[], extra: Record<string, unknown> = {}) =>
  ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "Role",
    metadata: { name: "r" },
    rules,
    ...extra,
  }) as KubeObject;

describe("validateRole", () => {
  it("accepts resource rules and, for ClusterRoles, non-resource rules", () => {
    assert.deepEqual(
      validateRole(roleWith([{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }]), true),
      [],
    );
    assert.deepEqual(
      validateRole(roleWith([{ verbs: ["get"], nonResourceURLs: ["/x"] }]), false),
      [],
    );
  });

  it("refuses rules kube refuses", () => {
    assert.deepEqual(
      messages(validateRole(roleWith([{ apiGroups: [""], resources: ["pods"] }]), true)),
      ["rules[0].verbs: Required value: verbs must contain at least one value"],
    );
    assert.deepEqual(messages(validateRole(roleWith([{ verbs: ["get"] }]), true)), [
      "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
      "rules[0].resources: Required value: resource rules must supply at least one resource",
    ]);
    assert.deepEqual(
      messages(validateRole(roleWith([{ verbs: ["get"], nonResourceURLs: ["/x"] }]), true)),
      [
        "rules[0].nonResourceURLs: Invalid value: []: namespaced rules cannot apply to non-resource URLs",
      ],
    );
    assert.deepEqual(
      messages(
        validateRole(
          roleWith([{ verbs: ["get"], resources: ["pods"], nonResourceURLs: ["/x"] }]),
          false,
        ),
      ),
      [
        "rules[0].nonResourceURLs: Invalid value: []: rules cannot apply to both regular resources and non-resource URLs",
      ],
    );
    assert.deepEqual(
      messages(
        validateRole(
          roleWith([
            { verbs: ["get"], apiGroups: [""], resources: ["a", "b"], resourceNames: ["n"] },
          ]),
          true,
        ),
      ),
      ["rules[0].resourceNames: Required value: resource names cannot apply to multiple resources"],
    );
    assert.deepEqual(messages(validateRole(roleWith([], { aggregationRule: {} }), false)), [
      "aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil",
    ]);
  });
});

describe("validateBinding", () => {
  it("accepts users, groups and service accounts (namespace needed at cluster scope)", () => {
    const b = binding("b", { kind: "ClusterRole", name: "view" }, [
      user("bob"),
      group("g"),
      { kind: "ServiceAccount", name: "sa", namespace: "x" },
    ]);
    assert.deepEqual(validateBinding(b, undefined, false), []);
    const local = binding(
      "b",
      { kind: "Role", name: "r" },
      [{ kind: "ServiceAccount", name: "sa" }],
      "x",
    );
    assert.deepEqual(validateBinding(local, undefined, true), []);
    assert.deepEqual(
      messages(validateBinding({ ...local, kind: "ClusterRoleBinding" }, undefined, false)),
      [
        'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
        "subjects[0].namespace: Required value",
      ],
    );
  });

  it("refuses bad subjects and role references, and a changed roleRef", () => {
    const b = binding("b", { kind: "ClusterRole", name: "" }, [
      { kind: "Robot", name: "x" },
      { kind: "User", name: "u", apiGroup: "" },
    ]);
    assert.deepEqual(messages(validateBinding(b, undefined, true)), [
      "roleRef.name: Required value",
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[1].apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"',
    ]);
    const old = binding("b", { kind: "ClusterRole", name: "view" }, [], "x");
    const next = binding("b", { kind: "ClusterRole", name: "edit" }, [], "x");
    assert.deepEqual(messages(validateBinding(next, old, true)), [
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    ]);
  });

  it("defaults the API group of role references and of User and Group subjects", () => {
    const b = {
      metadata: { name: "b" },
      roleRef: { kind: "ClusterRole", name: "view" },
      subjects: [
        { kind: "User", name: "u" },
        { kind: "ServiceAccount", name: "s" },
      ],
    } as unknown as KubeObject;
    defaultBinding(b);
    assert.deepEqual(b.roleRef, {
      kind: "ClusterRole",
      name: "view",
      apiGroup: "rbac.authorization.k8s.io",
    });
    assert.deepEqual(b.subjects, [
      { kind: "User", name: "u", apiGroup: "rbac.authorization.k8s.io" },
      { kind: "ServiceAccount", name: "s" },
    ]);
  });
});
