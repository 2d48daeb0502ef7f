/**
 * Create/update checks of ValidatingAdmissionPolicy and its binding, after
 * defaulting, in kube's words: a policy whose CEL does not compile is refused
 * with the field and the compiler's message
 * (`spec.validations[0].expression: Invalid value: "object.foo ==": compilation failed: …`);
 * a binding that asks for both Deny and Warn is refused likewise.
 */

import type { KubeObject } from "../../../api/index.js";
import {
  dns1123Subdomain,
  type FieldError,
  invalidValue,
  pathSegmentName,
  qualifiedName,
  requiredValue,
} from "../../../api/index.js";
import { duplicate, notSupported, tooMany } from "../../validation/field-errors.js";
import type { BindingSpec, PolicySpec } from "./api-types.js";
import { compileExpression } from "./cel-compile.js";
import { compileErrors, compilePolicy } from "./compiled-policy.js";
import { invalidList, validateLabelSelector, validateMatchResources } from "./match-validation.js";

const REASONS = ["Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"];
const ACTIONS = ["Audit", "Deny", "Warn"];
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set(
  "true false null in as break const continue else for function if import let loop package namespace return var void while".split(
    " ",
  ),
);

export function validatePolicy(obj: KubeObject): FieldError[] {
  const spec = (obj.spec ?? {}) as PolicySpec;
  const errors: FieldError[] = [];
  if (spec.failurePolicy === undefined) errors.push(requiredValue("spec.failurePolicy"));
  else if (!["Fail", "Ignore"].includes(spec.failurePolicy))
    errors.push(notSupported("spec.failurePolicy", spec.failurePolicy, ["Fail", "Ignore"]));
  if (spec.paramKind) {
    if (!spec.paramKind.apiVersion) errors.push(requiredValue("spec.paramKind.apiVersion"));
    if (!spec.paramKind.kind) errors.push(requiredValue("spec.paramKind.kind"));
  }
  if (!spec.matchConstraints) errors.push(requiredValue("spec.matchConstraints"));
  else {
    errors.push(...validateMatchResources(spec.matchConstraints, "spec.matchConstraints"));
    if ((spec.matchConstraints.resourceRules ?? []).length === 0)
      errors.push(requiredValue("spec.matchConstraints.resourceRules"));
  }
  errors.push(...validateNamedExpressions(spec));
  const validations = spec.validations ?? [];
  const audits = spec.auditAnnotations ?? [];
  if (validations.length === 0 && audits.length === 0) {
    const why = "validations or auditAnnotations must contain at least one item";
    errors.push(
      requiredValue("spec.validations", why),
      requiredValue("spec.auditAnnotations", why),
    );
  }
  validations.forEach((v, i) => {
    const at = `spec.validations[${i}]`;
    if (!v.expression?.trim())
      errors.push(requiredValue(`${at}.expression`, "expression is not specified"));
    if (
      v.messageExpression !== undefined &&
      v.messageExpression !== "" &&
      !v.messageExpression.trim()
    )
      errors.push(
        invalidValue(
          `${at}.messageExpression`,
          v.messageExpression,
          "must be non-empty if specified",
        ),
      );
    if (v.message !== undefined && v.message !== "" && !v.message.trim())
      errors.push(
        invalidValue(`${at}.message`, v.message, "message must be non-empty if specified"),
      );
    else if (/[\n\r]/.test(v.message?.trim() ?? ""))
      errors.push(invalidValue(`${at}.message`, v.message, "message must not contain line breaks"));
    if (v.reason !== undefined && !REASONS.includes(v.reason))
      errors.push(notSupported(`${at}.reason`, v.reason, REASONS));
  });
  audits.forEach((a, i) => {
    const at = `spec.auditAnnotations[${i}]`;
    for (const why of qualifiedName(`${obj.metadata.name ?? ""}/${a.key ?? ""}`))
      errors.push(invalidValue(`${at}.key`, `${obj.metadata.name ?? ""}/${a.key ?? ""}`, why));
    if (!a.valueExpression?.trim())
      errors.push(requiredValue(`${at}.valueExpression`, "valueExpression is not specified"));
    else {
      const c = compileExpression(a.valueExpression, {
        hasParams: spec.paramKind !== undefined,
        variables: (spec.variables ?? []).map((v) => v.name),
      });
      if (!c.ok) errors.push(invalidValue(`${at}.valueExpression`, a.valueExpression, c.error));
    }
  });
  for (const e of compileErrors(compilePolicy(spec)))
    if (e.expression.trim() && !e.compiled.ok)
      errors.push(invalidValue(e.field, e.expression, e.compiled.error));
  return errors;
}

/** Names (and emptiness) of matchConditions and variables; their CEL is checked with the rest. */
function validateNamedExpressions(spec: PolicySpec): FieldError[] {
  const errors: FieldError[] = [];
  const conditions = spec.matchConditions ?? [];
  if (conditions.length > 64) errors.push(tooMany("spec.matchConditions", conditions.length, 64));
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const at = `spec.matchConditions[${i}]`;
    if (!c.expression?.trim()) errors.push(requiredValue(`${at}.expression`));
    if (!c.name) errors.push(requiredValue(`${at}.name`));
    else {
      for (const why of qualifiedName(c.name)) errors.push(invalidValue(`${at}.name`, c.name, why));
      if (seen.has(c.name)) errors.push(duplicate(`${at}.name`, c.name));
      seen.add(c.name);
    }
  });
  (spec.variables ?? []).forEach((v, i) => {
    const at = `spec.variables[${i}]`;
    if (!v.name?.trim()) errors.push(requiredValue(`${at}.name`, "name is not specified"));
    else if (!CEL_IDENTIFIER.test(v.name) || CEL_RESERVED.has(v.name))
      errors.push(invalidValue(`${at}.name`, v.name, "name is not a valid CEL identifier"));
    if (!v.expression?.trim())
      errors.push(requiredValue(`${at}.expression`, "expression is not specified"));
  });
  return errors;
}

export function validateBinding(obj: KubeObject): FieldError[] {
  const spec = (obj.spec ?? {}) as BindingSpec;
  const errors: FieldError[] = [];
  if (!spec.policyName) errors.push(requiredValue("spec.policyName"));
  else
    for (const why of dns1123Subdomain(spec.policyName))
      errors.push(invalidValue("spec.policyName", spec.policyName, why));
  const ref = spec.paramRef;
  if (ref) {
    if (ref.name) {
      for (const why of pathSegmentName(ref.name))
        errors.push(invalidValue("spec.paramRef.name", ref.name, why));
      if (ref.selector)
        errors.push({
          reason: "FieldValueForbidden",
          field: "spec.paramRef.name",
          detail: "Forbidden: name and selector are mutually exclusive",
        });
    }
    if (ref.selector) {
      errors.push(...validateLabelSelector(ref.selector, "spec.paramRef.selector"));
      if (ref.name)
        errors.push({
          reason: "FieldValueForbidden",
          field: "spec.paramRef.selector",
          detail: "Forbidden: name and selector are mutually exclusive",
        });
    }
    if (!ref.name && !ref.selector)
      errors.push(requiredValue("spec.paramRef", "one of name or selector must be specified"));
    if (!ref.parameterNotFoundAction)
      errors.push(requiredValue("spec.paramRef.parameterNotFoundAction"));
    else if (!["Deny", "Allow"].includes(ref.parameterNotFoundAction))
      errors.push(
        notSupported("spec.paramRef.parameterNotFoundAction", ref.parameterNotFoundAction, [
          "Deny",
          "Allow",
        ]),
      );
  }
  if (spec.matchResources)
    errors.push(...validateMatchResources(spec.matchResources, "spec.matchResources"));
  errors.push(...validateActions(spec.validationActions ?? []));
  return errors;
}

function validateActions(actions: string[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errors.push(notSupported(`spec.validationActions[${i}]`, a, ACTIONS));
    if (seen.has(a)) errors.push(duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has("Deny") && seen.has("Warn"))
    errors.push(
      invalidList(
        "spec.validationActions",
        "admissionregistration.ValidationAction",
        actions,
        "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
      ),
    );
  if (seen.size === 0)
    errors.push(
      requiredValue("spec.validationActions", "at least one validation action is required"),
    );
  return errors;
}
