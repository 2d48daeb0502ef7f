/**
 * Runs a rule tree over an object (and, on update, its old state), as kube's
 * CEL validator: a rule runs on each non-null value of its node; a transition
 * rule (one that reads `oldSelf`) only where the old value can be correlated —
 * object properties and map entries by key, items of `map` lists by their keys —
 * unless `optionalOldSelf`. Failures of other rules on values left unchanged by
 * an update are ratcheted (not reported), as kube does since 1.30.
 */
import { type CelInput, isCelError } from "@bufbuild/cel";
import type { FieldError, Schema } from "../../../api/index.js";
import { isDeepEqual } from "../json-equal.js";
import { childPath, indexPath } from "../schema-nav.js";
import type { CompiledRule, RuleBindings } from "./compile-rule.js";
import { appendFieldPath, normalizeFieldPath } from "./field-path.js";
import { celOptional } from "./library.js";
import { evaluationError, fieldErrorForReason, ruleMessageOrDefault } from "./rule-errors.js";
import type { RuleNode } from "./rule-tree.js";
import { toCel } from "./values.js";

const MAX_MESSAGE_BYTES = 5 * 1024;
const ROOT_PATH = "<nil>";

/** Field errors of every failed rule of `node` over `value` (at `path`), `old` being the prior state. */
export function evaluateRules(
  node: RuleNode,
  value: unknown,
  old: unknown,
  path = "",
  parentUnchanged = false,
): FieldError[] {
  if (value === null || value === undefined) return [];
  const unchanged = old !== undefined ? isDeepEqual(value, old) : parentUnchanged;
  const errors = runRules(node, value, old, path, unchanged);
  if (Array.isArray(value)) {
    if (!node.items) return errors;
    const oldItems = Array.isArray(old) ? old : [];
    const keys = node.schema["x-kubernetes-list-type"] === "map" ? mapKeys(node.schema) : undefined;
    value.forEach((item, i) => {
      const oldItem = keys ? oldItems.find((o) => sameKeys(o, item, keys)) : undefined;
      errors.push(...evaluateRules(node.items!, item, oldItem, indexPath(path, i), unchanged));
    });
    return errors;
  }
  if (typeof value !== "object") return errors;
  const obj = value as Record<string, unknown>;
  const oldObj = old !== null && typeof old === "object" ? (old as Record<string, unknown>) : {};
  for (const [key, v] of Object.entries(obj)) {
    const sub =
      node.properties.get(key) ?? (node.schema.properties ? undefined : node.additionalProperties);
    if (!sub) continue;
    const at = node.schema.properties ? childPath(path, key) : `${path}[${key}]`;
    errors.push(...evaluateRules(sub, v, oldObj[key], at, unchanged));
  }
  return errors;
}

function mapKeys(schema: Schema): string[] {
  return schema["x-kubernetes-list-map-keys"] ?? [];
}

function sameKeys(a: unknown, b: unknown, keys: string[]): boolean {
  if (a === null || typeof a !== "object" || b === null || typeof b !== "object") return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return keys.every((k) => isDeepEqual(ra[k], rb[k]));
}

function runRules(
  node: RuleNode,
  value: unknown,
  old: unknown,
  path: string,
  unchanged: boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  const type = node.schema.type ?? "";
  // kube names the root of the object by its nil field path.
  const where = path === "" ? ROOT_PATH : path;
  let self: CelInput | undefined;
  let oldSelf: CelInput | undefined;
  for (const compiled of node.rules) {
    if (Array.isArray(compiled)) {
      const detail = compiled.map((e) => e.detail).join("; ");
      errors.push(fieldErrorForReason(where, type, `rule compile error: ${detail}`, undefined));
      continue;
    }
    const optional = compiled.rule.optionalOldSelf === true;
    if (compiled.usesOldSelf && old === undefined && !optional) continue;
    self ??= toCel(value, node.schema, node.root);
    if (compiled.usesOldSelf && old !== undefined) oldSelf ??= toCel(old, node.schema, node.root);
    const bindings: RuleBindings = {
      self,
      oldSelf: optional ? celOptional(oldSelf ?? undefined) : (oldSelf ?? null),
    };
    const result = compiled.evaluate(bindings);
    if (isCelError(result)) {
      errors.push(evaluationError(where, type, compiled.rule, result.message));
      continue;
    }
    if (result === true) continue;
    if (unchanged && !compiled.usesOldSelf) continue;
    errors.push(failure(compiled, bindings, node.schema, path, type));
  }
  return errors;
}

function failure(
  compiled: CompiledRule,
  bindings: RuleBindings,
  schema: Schema,
  path: string,
  type: string,
): FieldError {
  const rule = compiled.rule;
  let at = path;
  if (rule.fieldPath) {
    const suffix = normalizeFieldPath(rule.fieldPath, schema);
    if (typeof suffix === "string") at = appendFieldPath(path, suffix);
  }
  if (at === "") at = ROOT_PATH;
  return fieldErrorForReason(at, type, messageOf(compiled, bindings), rule.reason);
}

/** The messageExpression's result when it is a usable one-line string, else the message. */
function messageOf(compiled: CompiledRule, bindings: RuleBindings): string {
  const result = compiled.message?.(bindings);
  if (typeof result === "string") {
    const text = result.trim();
    if (text !== "" && !text.includes("\n") && Buffer.byteLength(text) <= MAX_MESSAGE_BYTES)
      return text;
  }
  return ruleMessageOrDefault(compiled.rule);
}
