/**
 * Create/update checks of MatchResources (a policy's matchConstraints, a binding's
 * matchResources) and label selectors, in kube's words (`pkg/apis/
 * admissionregistration/validation`, `metav1/validation`).
 */
import {
  type FieldError,
  forbiddenValue,
  invalidValue,
  labelValue,
  qualifiedName,
  requiredValue,
} from "../../../api/index.js";
import { notSupported } from "../../validation/field-errors.js";
import type { LabelSelector, MatchResources, NamedRuleWithOperations } from "./api-types.js";

const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const SCOPES = ["*", "Cluster", "Namespaced"];

/** Go's `%#v` of a string slice, which field.Invalid prints for list values. */
export function goStrings(type: string, values: readonly string[]): string {
  return `[]${type}{${values.map((v) => JSON.stringify(v)).join(", ")}}`;
}

/** `Invalid value: <go value>: why` for list-valued fields. */
export function invalidList(
  field: string,
  type: string,
  values: readonly string[],
  why: string,
): FieldError {
  return {
    reason: "FieldValueInvalid",
    field,
    detail: `Invalid value: ${goStrings(type, values)}: ${why}`,
  };
}

export function validateMatchResources(m: MatchResources, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (m.matchPolicy === undefined) errors.push(requiredValue(`${path}.matchPolicy`));
  else if (!["Equivalent", "Exact"].includes(m.matchPolicy))
    errors.push(notSupported(`${path}.matchPolicy`, m.matchPolicy, ["Equivalent", "Exact"]));
  for (const key of ["namespaceSelector", "objectSelector"] as const) {
    const selector = m[key];
    if (selector === undefined) errors.push(requiredValue(`${path}.${key}`));
    else errors.push(...validateLabelSelector(selector, `${path}.${key}`));
  }
  (m.resourceRules ?? []).forEach((r, i) => {
    errors.push(...validateRule(r, `${path}.resourceRules[${i}]`));
  });
  (m.excludeResourceRules ?? []).forEach((r, i) => {
    errors.push(...validateRule(r, `${path}.excludeResourceRules[${i}]`));
  });
  return errors;
}

function validateRule(rule: NamedRuleWithOperations, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const ops = rule.operations ?? [];
  if (ops.length === 0) errors.push(requiredValue(`${path}.operations`));
  if (ops.length > 1 && ops.includes("*"))
    errors.push(
      invalidList(
        `${path}.operations`,
        "admissionregistration.OperationType",
        ops,
        "if '*' is present, must not specify other operations",
      ),
    );
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op))
      errors.push(notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  for (const [field, what] of [
    ["apiGroups", "API groups"],
    ["apiVersions", "API versions"],
  ] as const) {
    const values = rule[field] ?? [];
    if (values.length === 0) errors.push(requiredValue(`${path}.${field}`));
    if (values.length > 1 && values.includes("*"))
      errors.push(
        invalidList(
          `${path}.${field}`,
          "string",
          values,
          `if '*' is present, must not specify other ${what}`,
        ),
      );
  }
  const resources = rule.resources ?? [];
  if (resources.length === 0) errors.push(requiredValue(`${path}.resources`));
  resources.forEach((r, i) => {
    if (r === "") errors.push(requiredValue(`${path}.resources[${i}]`));
  });
  if (resources.length > 1 && resources.includes("*/*"))
    errors.push(
      invalidList(
        `${path}.resources`,
        "string",
        resources,
        "if '*/*' is present, must not specify other resources",
      ),
    );
  if (rule.scope !== undefined && !SCOPES.includes(rule.scope))
    errors.push(notSupported(`${path}.scope`, rule.scope, SCOPES));
  return errors;
}

/** apimachinery's ValidateLabelSelector: operators with their values, keys and values as label syntax. */
export function validateLabelSelector(selector: LabelSelector, path: string): FieldError[] {
  const errors: FieldError[] = [];
  (selector.matchExpressions ?? []).forEach((req, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values = req.values ?? [];
    if (req.operator === "In" || req.operator === "NotIn") {
      if (values.length === 0)
        errors.push(
          requiredValue(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
        );
    } else if (req.operator === "Exists" || req.operator === "DoesNotExist") {
      if (values.length > 0)
        errors.push(
          forbiddenValue(
            `${at}.values`,
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
    } else {
      errors.push(invalidValue(`${at}.operator`, req.operator, "not a valid selector operator"));
    }
    for (const why of qualifiedName(req.key ?? ""))
      errors.push(invalidValue(`${at}.key`, req.key, why));
    values.forEach((v, j) => {
      for (const why of labelValue(v)) errors.push(invalidValue(`${at}.values[${j}]`, v, why));
    });
  });
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    for (const why of qualifiedName(key))
      errors.push(invalidValue(`${path}.matchLabels`, key, why));
    for (const why of labelValue(value))
      errors.push(invalidValue(`${path}.matchLabels`, value, why));
  }
  return errors;
}
