/**
 * Evaluates one compiled policy for one request and one param, as kube's
 * validator does: match conditions first (any false skips the policy), then every
 * validation, with `variables.<name>` computed lazily, at most once. Returns the
 * failures; each one is enforced by the binding's validationActions. Errors count
 * as failures only under failurePolicy Fail.
 */
import { type CelInput, type CelResult, celError, isCelError } from "@bufbuild/cel";
import { celTypeName, toCel } from "./cel-values.js";
import type { CompiledExpression, CompiledPolicy } from "./compiled-policy.js";

/** The CEL variables of a request, already converted with `toCel`. */
export interface RequestVariables {
  object: CelInput;
  oldObject: CelInput;
  request: CelInput;
  namespaceObject: CelInput;
}

/** A validation that failed (or errored under failurePolicy Fail). */
export interface Failure {
  message: string;
  /** StatusReason of the refusal: the validation's `reason`, else Invalid. */
  reason: string;
}

/** kube's MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

export function evaluatePolicy(
  policy: CompiledPolicy,
  vars: RequestVariables,
  params: unknown,
): Failure[] {
  const base: Record<string, unknown> = { ...vars, params: toCel(params) };
  const onError = (message: string): Failure[] =>
    policy.failurePolicy === "Fail" ? [{ message, reason: "Invalid" }] : [];

  const conditionErrors: string[] = [];
  for (const condition of policy.matchConditions) {
    const r = run(condition, base);
    if (r.error !== undefined) conditionErrors.push(r.error);
    else if (r.value === false) return [];
    else if (r.value !== true) conditionErrors.push(notBool(condition, r.value));
  }
  if (conditionErrors.length > 0)
    return onError(
      conditionErrors.length === 1 ? conditionErrors[0]! : `[${conditionErrors.join(", ")}]`,
    );

  const activation = withVariables(policy, base);
  const failures: Failure[] = [];
  for (const { validation, check, message } of policy.validations) {
    const r = run(check, activation);
    if (r.error !== undefined) failures.push(...onError(r.error));
    else if (r.value === true) continue;
    else if (r.value !== false) failures.push(...onError(notBool(check, r.value)));
    else
      failures.push({
        message:
          evaluatedMessage(message, activation) ||
          validation.message?.trim() ||
          `failed expression: ${validation.expression.trim()}`,
        reason: validation.reason || "Invalid",
      });
  }
  return failures;
}

function run(
  e: CompiledExpression,
  activation: Record<string, unknown>,
): { value: CelResult; error?: undefined } | { value?: undefined; error: string } {
  if (!e.compiled.ok) return { error: `compilation error: ${e.compiled.error}` };
  const value = e.compiled.program(activation);
  if (isCelError(value))
    return { error: `expression '${e.expression}' resulted in error: ${value.message}` };
  return { value };
}

function notBool(e: CompiledExpression, value: CelResult): string {
  return `expression '${e.expression}' resulted in error: no such overload: want bool, got ${celTypeName(value)}`;
}

/** The messageExpression's string, or "" when it errs, is not a string, is blank or multi-line. */
function evaluatedMessage(
  message: CompiledExpression | undefined,
  activation: Record<string, unknown>,
): string {
  if (!message) return "";
  const r = run(message, activation);
  if (typeof r.value !== "string") return "";
  const text = r.value.trim();
  if (text.includes("\n") || Buffer.byteLength(text) > MAX_MESSAGE_BYTES) return "";
  return text;
}

/**
 * The activation plus one lazy, memoised binding per variable under its qualified
 * name: @bufbuild/cel resolves `variables.x` by trying the name `variables.x`
 * first, so a variable is evaluated only when an expression reaches it, and an
 * error stays a value that only the expressions using it see.
 */
function withVariables(
  policy: CompiledPolicy,
  base: Record<string, unknown>,
): Record<string, unknown> {
  const activation: Record<string, unknown> = { ...base };
  for (const variable of policy.variables) {
    let memo: { value: unknown } | undefined;
    Object.defineProperty(activation, `variables.${variable.name}`, {
      enumerable: true,
      get() {
        if (!memo) {
          const compiled = variable.compiled;
          memo = {
            value: compiled.ok
              ? compiled.program(activation)
              : compileFailure(variable.field, compiled.error),
          };
        }
        return memo.value;
      },
    });
  }
  return activation;
}

/** The error value of a variable that does not compile (stored before a check existed). */
function compileFailure(field: string, error: string): CelResult {
  return celError(`${field}: compilation error: ${error}`);
}
