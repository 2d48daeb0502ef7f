/**
 * CEL validation rules of CRD schemas (`x-kubernetes-validations`): compiled
 * once per schema into a rule tree, run on every write of a custom object with
 * its old state on update, and compile-checked when a CRD is written.
 */
export {
  type CompiledRule,
  compileRule,
  type RuleCompilation,
  type RuleCompileError,
  type ValidationRule,
} from "./compile-rule.js";
export { evaluateRules } from "./evaluate.js";
export { normalizeFieldPath } from "./field-path.js";
export { SUPPORTED_REASONS } from "./rule-errors.js";
export { buildRuleTree, type RuleNode } from "./rule-tree.js";
