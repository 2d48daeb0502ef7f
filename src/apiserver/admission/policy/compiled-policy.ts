/**
 * A ValidatingAdmissionPolicy's CEL, compiled once per policy generation: match
 * conditions, variables (each seeing only the ones before it), validations and
 * their message expressions. Compile errors are kept, not thrown: the create/update
 * check reports them as field errors, and admission treats them per failurePolicy.
 */
import type { PolicySpec, Validation } from "./api-types.js";
import { type Compiled, type CompileScope, compileExpression } from "./cel-compile.js";

export interface CompiledExpression {
  /** The field path, e.g. `spec.validations[0].expression`. */
  field: string;
  expression: string;
  compiled: Compiled;
}

export interface CompiledCondition extends CompiledExpression {
  name: string;
}

export interface CompiledValidation {
  validation: Validation;
  check: CompiledExpression;
  message?: CompiledExpression;
}

export interface CompiledPolicy {
  failurePolicy: "Fail" | "Ignore";
  matchConditions: CompiledCondition[];
  variables: CompiledCondition[];
  validations: CompiledValidation[];
}

function compileAt(field: string, expression: string, scope: CompileScope): CompiledExpression {
  return { field, expression, compiled: compileExpression(expression, scope) };
}

export function compilePolicy(spec: PolicySpec): CompiledPolicy {
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const matchConditions = (spec.matchConditions ?? []).map((c, i) => ({
    name: c.name,
    ...compileAt(`spec.matchConditions[${i}].expression`, c.expression ?? "", {
      hasParams,
      variables: [],
      noVariables: true,
    }),
  }));
  const declared: string[] = [];
  const variables = (spec.variables ?? []).map((v, i) => {
    const compiled = {
      name: v.name,
      ...compileAt(`spec.variables[${i}].expression`, v.expression ?? "", {
        hasParams,
        variables: [...declared],
      }),
    };
    declared.push(v.name);
    return compiled;
  });
  const scope: CompileScope = { hasParams, variables: declared };
  const validations = (spec.validations ?? []).map((validation, i) => ({
    validation,
    check: compileAt(`spec.validations[${i}].expression`, validation.expression ?? "", scope),
    ...(validation.messageExpression?.trim()
      ? {
          message: compileAt(
            `spec.validations[${i}].messageExpression`,
            validation.messageExpression,
            scope,
          ),
        }
      : {}),
  }));
  return {
    failurePolicy: spec.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    matchConditions,
    variables,
    validations,
  };
}

/** Every compile error of a compiled policy, in field order. */
export function compileErrors(policy: CompiledPolicy): CompiledExpression[] {
  const all: CompiledExpression[] = [
    ...policy.matchConditions,
    ...policy.variables,
    ...policy.validations.flatMap((v) => (v.message ? [v.check, v.message] : [v.check])),
  ];
  return all.filter((e) => !e.compiled.ok);
}
