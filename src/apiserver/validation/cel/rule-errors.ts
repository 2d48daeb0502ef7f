/**
 * The field errors of failed CEL rules in kube-apiserver's words: the rule's
 * reason (Invalid by default, with the node's schema type as the value:
 * `spec.image: Invalid value: "string": Value is immutable`), its message or
 * `failed rule: <rule>`, and the forms of evaluation errors.
 */
import {
  type FieldError,
  forbiddenValue,
  invalidValue,
  requiredValue,
} from "../../../api/index.js";
import type { ValidationRule } from "./compile-rule.js";

/** The reasons a rule may give; others are refused when the CRD is written. */
export const SUPPORTED_REASONS = [
  "FieldValueDuplicate",
  "FieldValueForbidden",
  "FieldValueInvalid",
  "FieldValueRequired",
];

/** The rule as error messages name it: its message, else its expression. */
export function ruleErrorString(rule: ValidationRule): string {
  const message = rule.message?.trim();
  return message ? message : rule.rule.trim();
}

/** The detail of a failed rule without a usable messageExpression. */
export function ruleMessageOrDefault(rule: ValidationRule): string {
  const message = rule.message?.trim();
  return message ? message : `failed rule: ${rule.rule.trim()}`;
}

/** The error of a failed rule, by its `reason`; `type` is the node's schema type. */
export function fieldErrorForReason(
  path: string,
  type: string,
  detail: string,
  reason: string | undefined,
): FieldError {
  switch (reason) {
    case "FieldValueForbidden":
      return forbiddenValue(path, detail);
    case "FieldValueRequired":
      return requiredValue(path, detail);
    case "FieldValueDuplicate":
      return { reason: "FieldValueDuplicate", field: path, detail: `Duplicate value: "${type}"` };
    default:
      return invalidValue(path, type, detail);
  }
}

/** An evaluation error (no such key, overload mismatch, division by zero…). */
export function evaluationError(
  path: string,
  type: string,
  rule: ValidationRule,
  message: string,
): FieldError {
  const missing = /^field not found: (.*)$/.exec(message);
  const text = missing ? `no such key: ${missing[1]}` : message;
  if (/^(found )?no (matching|such) overload/.test(text)) {
    return invalidValue(
      path,
      type,
      `'${text}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`,
    );
  }
  return invalidValue(path, type, `${text} evaluating rule: ${ruleErrorString(rule)}`);
}
