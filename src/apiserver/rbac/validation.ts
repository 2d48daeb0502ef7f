/**
 * kube's validation of RBAC objects (`pkg/apis/rbac/validation`) and the
 * defaults it relies on (`rbac/v1` defaults: the API group of role references
 * and of User/Group subjects). Messages follow kube's field errors.
 */

import type { KubeObject } from "../../api/index.js";
import {
  dns1123Subdomain,
  type FieldError,
  invalidValue,
  pathSegmentName,
  requiredValue,
} from "../../api/index.js";
import {
  type ClusterRole,
  type PolicyRule,
  RBAC_GROUP,
  type RoleBinding,
  type Subject,
} from "./types.js";

function notSupported(field: string, value: string, supported: string[]): FieldError {
  return {
    reason: "FieldValueNotSupported",
    field,
    detail: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}`,
  };
}

export function validatePolicyRule(
  rule: PolicyRule,
  namespaced: boolean,
  path: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const len = (v: string[] | undefined) => (v ?? []).length;
  if (len(rule.verbs) === 0)
    errors.push(requiredValue(`${path}.verbs`, "verbs must contain at least one value"));
  if (len(rule.nonResourceURLs) > 0) {
    if (namespaced)
      errors.push(
        invalidValue(
          `${path}.nonResourceURLs`,
          rule.nonResourceURLs,
          "namespaced rules cannot apply to non-resource URLs",
        ),
      );
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0)
      errors.push(
        invalidValue(
          `${path}.nonResourceURLs`,
          rule.nonResourceURLs,
          "rules cannot apply to both regular resources and non-resource URLs",
        ),
      );
    return errors;
  }
  if (len(rule.apiGroups) === 0)
    errors.push(
      requiredValue(`${path}.apiGroups`, "resource rules must supply at least one api group"),
    );
  if (len(rule.resources) === 0)
    errors.push(
      requiredValue(`${path}.resources`, "resource rules must supply at least one resource"),
    );
  if (len(rule.resourceNames) > 0 && len(rule.resources) > 1)
    errors.push(
      requiredValue(`${path}.resourceNames`, "resource names cannot apply to multiple resources"),
    );
  return errors;
}

export function validateRole(obj: KubeObject, namespaced: boolean): FieldError[] {
  const role = obj as ClusterRole;
  const errors = (role.rules ?? []).flatMap((r, i) =>
    validatePolicyRule(r, namespaced, `rules[${i}]`),
  );
  if (
    !namespaced &&
    role.aggregationRule &&
    (role.aggregationRule.clusterRoleSelectors ?? []).length === 0
  )
    errors.push(
      requiredValue(
        "aggregationRule.clusterRoleSelectors",
        "at least one clusterRoleSelector required if aggregationRule is non-nil",
      ),
    );
  return errors;
}

function validateSubject(s: Subject, namespaced: boolean, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!s.name) errors.push(requiredValue(`${path}.name`));
  switch (s.kind) {
    case "ServiceAccount":
      if (s.name)
        for (const why of dns1123Subdomain(s.name))
          errors.push(invalidValue(`${path}.name`, s.name, why));
      if (s.apiGroup) errors.push(notSupported(`${path}.apiGroup`, s.apiGroup, [""]));
      if (!namespaced && !s.namespace) errors.push(requiredValue(`${path}.namespace`));
      break;
    case "User":
    case "Group":
      if (!s.name)
        errors.push(
          invalidValue(
            `${path}.name`,
            s.name ?? "",
            `${s.kind.toLowerCase()} name cannot be empty`,
          ),
        );
      if (s.apiGroup !== RBAC_GROUP)
        errors.push(notSupported(`${path}.apiGroup`, s.apiGroup ?? "", [RBAC_GROUP]));
      break;
    default:
      errors.push(notSupported(`${path}.kind`, s.kind ?? "", ["ServiceAccount", "User", "Group"]));
  }
  return errors;
}

export function validateBinding(
  obj: KubeObject,
  old: KubeObject | undefined,
  namespaced: boolean,
): FieldError[] {
  const b = obj as RoleBinding;
  // An absent roleRef is Go's zero RoleRef, whose apiGroup v1 defaults.
  const ref = b.roleRef ?? { apiGroup: RBAC_GROUP, kind: "", name: "" };
  const errors: FieldError[] = [];
  if (ref.apiGroup !== RBAC_GROUP)
    errors.push(notSupported("roleRef.apiGroup", ref.apiGroup ?? "", [RBAC_GROUP]));
  const kinds = namespaced ? ["Role", "ClusterRole"] : ["ClusterRole"];
  if (!kinds.includes(ref.kind)) errors.push(notSupported("roleRef.kind", ref.kind ?? "", kinds));
  if (!ref.name) errors.push(requiredValue("roleRef.name"));
  else
    for (const why of pathSegmentName(ref.name))
      errors.push(invalidValue("roleRef.name", ref.name, why));
  (b.subjects ?? []).forEach((s, i) => {
    errors.push(...validateSubject(s, namespaced, `subjects[${i}]`));
  });
  const oldRef = (old as RoleBinding | undefined)?.roleRef;
  if (
    oldRef &&
    (oldRef.apiGroup !== ref.apiGroup || oldRef.kind !== ref.kind || oldRef.name !== ref.name)
  )
    errors.push({
      reason: "FieldValueInvalid",
      field: "roleRef",
      detail: `Invalid value: rbac.RoleRef{APIGroup:${JSON.stringify(ref.apiGroup)}, Kind:${JSON.stringify(ref.kind)}, Name:${JSON.stringify(ref.name)}}: cannot change roleRef`,
    });
  return errors;
}

/** rbac/v1 defaults: role references and User/Group subjects are in the RBAC group. */
export function defaultBinding(obj: KubeObject): void {
  const b = obj as RoleBinding;
  if (b.roleRef && !b.roleRef.apiGroup) b.roleRef.apiGroup = RBAC_GROUP;
  for (const s of b.subjects ?? []) {
    if (!s.apiGroup && (s.kind === "User" || s.kind === "Group")) s.apiGroup = RBAC_GROUP;
  }
}
