/**
 * Compiles one `x-kubernetes-validations` rule against the schema node it sits
 * on, as kube does when a CRD is written: parse, check (see `static-check.ts`),
 * require a bool result, and plan a program that is kept and run per request.
 * A `messageExpression` is compiled the same way and must yield a string.
 */
import { type CelInput, type CelResult, parse, plan } from "@bufbuild/cel";
import type { Schema } from "../../../api/index.js";
import { ruleEnvironment } from "./environment.js";
import { formatIssues, syntaxIssue } from "./source-errors.js";
import { checkExpression } from "./static-check.js";

/** One entry of `x-kubernetes-validations`. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** What a compiled program is run with: CEL forms of the node's new and old values. */
export interface RuleBindings {
  self: CelInput;
  oldSelf: CelInput;
}

type Program = (bindings: RuleBindings) => CelResult;

export interface CompiledRule {
  rule: ValidationRule;
  /** True when the rule reads `oldSelf` (a transition rule). */
  usesOldSelf: boolean;
  evaluate(bindings: RuleBindings): CelResult;
  /** The messageExpression's program, when the rule has one. */
  message?: (bindings: RuleBindings) => CelResult;
}

/** A compile failure of the rule (`rule`) or of its `messageExpression`. */
export interface RuleCompileError {
  field: "rule" | "messageExpression";
  detail: string;
}

export interface RuleCompilation {
  compiled?: CompiledRule;
  errors: RuleCompileError[];
}

interface Expression {
  program?: Program;
  usesOldSelf: boolean;
  error?: string;
}

function compileExpression(
  source: string,
  schema: Schema,
  root: boolean,
  optionalOldSelf: boolean,
  want: "bool" | "string",
): Expression {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(source);
  } catch (e) {
    return { usesOldSelf: false, error: formatIssues(source, [syntaxIssue(e)]) };
  }
  const checked = checkExpression(parsed, schema, root, optionalOldSelf);
  if (checked.issues.length > 0)
    return { usesOldSelf: checked.usesOldSelf, error: formatIssues(source, checked.issues) };
  if (checked.type !== want && checked.type !== "dyn")
    return { usesOldSelf: checked.usesOldSelf, error: `must evaluate to a ${want}` };
  try {
    return { program: plan(ruleEnvironment, parsed), usesOldSelf: checked.usesOldSelf };
  } catch (e) {
    return {
      usesOldSelf: checked.usesOldSelf,
      error: `program instantiation failed: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

/** Compiles `rule` for the schema node `schema` (`root` at a resource root). */
export function compileRule(rule: ValidationRule, schema: Schema, root: boolean): RuleCompilation {
  const optional = rule.optionalOldSelf === true;
  const errors: RuleCompileError[] = [];
  const main = compileExpression(rule.rule.trim(), schema, root, optional, "bool");
  if (main.error !== undefined) {
    const detail = main.error.startsWith("must evaluate")
      ? "cel expression must evaluate to a bool"
      : main.error.startsWith("program")
        ? main.error
        : `compilation failed: ${main.error}`;
    errors.push({ field: "rule", detail });
  }
  let message: Program | undefined;
  const messageSource = rule.messageExpression?.trim();
  if (messageSource) {
    const m = compileExpression(messageSource, schema, root, optional, "string");
    if (m.error !== undefined) {
      const detail = m.error.startsWith("must evaluate")
        ? "must evaluate to string"
        : `messageExpression compilation failed: ${m.error}`;
      errors.push({ field: "messageExpression", detail });
    }
    message = m.program;
  }
  if (errors.length > 0 || !main.program) return { errors };
  const program = main.program;
  const messageProgram = message;
  return {
    errors,
    compiled: {
      rule,
      usesOldSelf: main.usesOldSelf,
      evaluate: (b) => program(b),
      ...(messageProgram ? { message: (b: RuleBindings) => messageProgram(b) } : {}),
    },
  };
}
