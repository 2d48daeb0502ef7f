/**
 * The checks kube makes of `x-kubernetes-validations` when a CRD is written:
 * the shape of each rule (non-empty rule and message, one-line messages, a
 * supported reason, a fieldPath inside the schema), then compilation against
 * the node's schema. Errors name the rule by kube's path, e.g.
 * `spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule`
 * (`spec.validation` when every version has the same schema, as kube's internal
 * form has it; else `spec.versions[i].schema`).
 */

import { isDeepStrictEqual } from "node:util";
import type { Schema } from "../../api/index.js";
import { type FieldError, invalidValue, requiredValue } from "../../api/index.js";
import {
  compileRule,
  normalizeFieldPath,
  SUPPORTED_REASONS,
  type ValidationRule,
} from "../validation/cel/index.js";
import type { CrdVersion } from "./custom-types.js";

/** Go's `%#v` of an `apiextensions.ValidationRule`, the value kube reports for a rule that does not compile. */
function goRule(rule: ValidationRule): string {
  const q = (s: string | undefined) => JSON.stringify(s ?? "");
  const reason =
    rule.reason === undefined
      ? "(*apiextensions.FieldValueErrorReason)(nil)"
      : `(*apiextensions.FieldValueErrorReason)(${q(rule.reason)})`;
  const optional =
    rule.optionalOldSelf === undefined ? "(*bool)(nil)" : `(*bool)(${rule.optionalOldSelf})`;
  return `apiextensions.ValidationRule{Rule:${q(rule.rule)}, Message:${q(rule.message)}, MessageExpression:${q(rule.messageExpression)}, Reason:${reason}, FieldPath:${q(rule.fieldPath)}, OptionalOldSelf:${optional}}`;
}

function shapeErrors(rule: ValidationRule, at: string, schema: Schema): FieldError[] {
  const errors: FieldError[] = [];
  const rawRule = typeof rule.rule === "string" ? rule.rule : "";
  const message = rule.message ?? "";
  if (rawRule.trim() === "") errors.push(requiredValue(`${at}.rule`, "rule is not specified"));
  else if (message !== "" && message.trim() === "")
    errors.push(invalidValue(`${at}.message`, message, "message must be non-empty if specified"));
  else if (/[\n\r]/.test(message.trim()))
    errors.push(invalidValue(`${at}.message`, message, "message must not contain line breaks"));
  else if (/[\n\r]/.test(rawRule.trim()) && message.trim() === "")
    errors.push(
      requiredValue(`${at}.message`, "message must be specified if rule contains line breaks"),
    );
  const messageExpression = rule.messageExpression ?? "";
  if (messageExpression !== "" && messageExpression.trim() === "")
    errors.push(
      requiredValue(`${at}.messageExpression`, "messageExpression must be non-empty if specified"),
    );
  if (rule.reason !== undefined && !SUPPORTED_REASONS.includes(rule.reason)) {
    errors.push({
      reason: "FieldValueNotSupported",
      field: `${at}.reason`,
      detail: `Unsupported value: ${JSON.stringify(rule.reason)}: supported values: ${SUPPORTED_REASONS.map((r) => JSON.stringify(r)).join(", ")}`,
    });
  }
  const fieldPath = rule.fieldPath ?? "";
  if (fieldPath !== "" && fieldPath.trim() === "")
    errors.push(
      invalidValue(`${at}.fieldPath`, fieldPath, "fieldPath must be non-empty if specified"),
    );
  else if (/[\n\r]/.test(fieldPath))
    errors.push(
      invalidValue(`${at}.fieldPath`, fieldPath, "fieldPath must not contain line breaks"),
    );
  else if (fieldPath !== "" && typeof normalizeFieldPath(fieldPath, schema) !== "string")
    errors.push(invalidValue(`${at}.fieldPath`, fieldPath, "fieldPath must be a valid path"));
  return errors;
}

function compileErrors(
  rule: ValidationRule,
  at: string,
  schema: Schema,
  root: boolean,
  uncorrelatable: string | undefined,
): FieldError[] {
  const result = compileRule(rule, schema, root);
  const errors: FieldError[] = result.errors.map((e) => ({
    reason: "FieldValueInvalid",
    field: `${at}.${e.field}`,
    detail: `Invalid value: ${goRule(rule)}: ${e.detail}`,
  }));
  const compiled = result.compiled;
  if (compiled?.usesOldSelf && uncorrelatable !== undefined) {
    errors.push(
      invalidValue(
        `${at}.rule`,
        rule.rule,
        `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
      ),
    );
  } else if (compiled && !compiled.usesOldSelf && rule.optionalOldSelf !== undefined) {
    errors.push(
      invalidValue(
        `${at}.optionalOldSelf`,
        rule.optionalOldSelf,
        "may not be set if oldSelf is not used in rule",
      ),
    );
  }
  return errors;
}

/** Rule errors of one schema node and everything below it. */
function schemaRuleErrors(
  schema: Schema,
  path: string,
  root: boolean,
  uncorrelatable: string | undefined,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, sub] of Object.entries(schema.properties ?? {}))
    errors.push(
      ...schemaRuleErrors(sub, `${path}.properties[${key}]`, embedded(sub), uncorrelatable),
    );
  const extra = schema.additionalProperties;
  if (typeof extra === "object")
    errors.push(
      ...schemaRuleErrors(extra, `${path}.additionalProperties`, embedded(extra), uncorrelatable),
    );
  if (schema.items) {
    const itemsPath = `${path}.items`;
    const correlated = schema["x-kubernetes-list-type"] === "map";
    errors.push(
      ...schemaRuleErrors(
        schema.items,
        itemsPath,
        embedded(schema.items),
        uncorrelatable ?? (correlated ? undefined : itemsPath),
      ),
    );
  }
  (schema["x-kubernetes-validations"] ?? []).forEach((rule, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const shape = shapeErrors(rule, at, schema);
    errors.push(
      ...(shape.length > 0 ? shape : compileErrors(rule, at, schema, root, uncorrelatable)),
    );
  });
  return errors;
}

function embedded(schema: Schema): boolean {
  return schema["x-kubernetes-embedded-resource"] === true;
}

/** Errors of every rule in the CRD's version schemas, at kube's paths. */
export function crdRuleErrors(versions: CrdVersion[]): FieldError[] {
  const schemas = versions.map((v) => v.schema?.openAPIV3Schema);
  const first = schemas[0];
  if (first && schemas.every((s) => isDeepStrictEqual(s, first)))
    return schemaRuleErrors(first, "spec.validation.openAPIV3Schema", true, undefined);
  return schemas.flatMap((s, i) =>
    s ? schemaRuleErrors(s, `spec.versions[${i}].schema.openAPIV3Schema`, true, undefined) : [],
  );
}
