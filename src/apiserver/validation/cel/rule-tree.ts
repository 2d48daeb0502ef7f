/**
 * The compiled rules of a schema, in the shape of the schema: a node per schema
 * node that has rules itself or below it (properties, map values, list items).
 * Built once per served CRD version and reused by every request.
 */
import type { Schema } from "../../../api/index.js";
import { type CompiledRule, compileRule, type RuleCompileError } from "./compile-rule.js";

export interface RuleNode {
  schema: Schema;
  /** A resource root (the object, or an embedded resource): apiVersion/kind/metadata in view. */
  root: boolean;
  /** Per rule: the program, or why it does not compile. */
  rules: (CompiledRule | RuleCompileError[])[];
  properties: Map<string, RuleNode>;
  additionalProperties?: RuleNode;
  items?: RuleNode;
}

function rulesOf(schema: Schema): NonNullable<Schema["x-kubernetes-validations"]> {
  return schema["x-kubernetes-validations"] ?? [];
}

/** The rule tree of `schema`, or undefined when it has no rules anywhere. */
export function buildRuleTree(schema: Schema, root = true): RuleNode | undefined {
  const properties = new Map<string, RuleNode>();
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    if (root && key === "metadata") continue;
    const node = buildRuleTree(sub, sub["x-kubernetes-embedded-resource"] === true);
    if (node) properties.set(key, node);
  }
  const extra = schema.additionalProperties;
  const additionalProperties =
    typeof extra === "object"
      ? buildRuleTree(extra, extra["x-kubernetes-embedded-resource"] === true)
      : undefined;
  const items = schema.items
    ? buildRuleTree(schema.items, schema.items["x-kubernetes-embedded-resource"] === true)
    : undefined;
  const rules = rulesOf(schema)
    .filter((r) => r.rule.trim() !== "")
    .map((r) => {
      const result = compileRule(r, schema, root);
      return result.compiled ?? result.errors;
    });
  if (rules.length === 0 && properties.size === 0 && !additionalProperties && !items)
    return undefined;
  return {
    schema,
    root,
    rules,
    properties,
    ...(additionalProperties ? { additionalProperties } : {}),
    ...(items ? { items } : {}),
  };
}
