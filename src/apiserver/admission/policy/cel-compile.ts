/**
 * Compiles the CEL expressions of a ValidatingAdmissionPolicy with @bufbuild/cel:
 * parse, then a reference check that stands in for cel-go's type checker (every
 * identifier, `variables.<name>` and function must be declared), then a plan.
 * Errors read like kube-apiserver's: `ERROR: <input>:1:12: …` with the line and
 * a caret under the column.
 */
import { type CelEnv, type CelResult, celEnv, parse, plan } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";

type Expr = ReturnType<typeof parse>["expr"];

/** What an expression may refer to besides the request variables. */
export interface CompileScope {
  /** The policy has a paramKind: `params` is declared. */
  hasParams: boolean;
  /** Names usable as `variables.<name>` (earlier variables only, for a variable). */
  variables: readonly string[];
  /** Match conditions see no `variables`. */
  noVariables?: boolean;
}

/** A compiled expression: call with the activation (see evaluate.ts). */
export type Program = (activation: Record<string, unknown>) => CelResult;

export type Compiled = { ok: true; program: Program } | { ok: false; error: string };

const REQUEST_VARIABLES = ["object", "oldObject", "request", "namespaceObject"];
/** Type identifiers usable as values (`type(x) == string`). */
const TYPE_NAMES = [
  "bool",
  "bytes",
  "double",
  "dyn",
  "int",
  "list",
  "map",
  "null_type",
  "string",
  "type",
  "uint",
];
const OPERATOR = /^[_@!-]/;

const env: CelEnv = celEnv({ funcs: strings });

/** Parses, checks and plans `expression`; never throws. */
export function compileExpression(expression: string, scope: CompileScope): Compiled {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(expression);
  } catch (e) {
    return { ok: false, error: `compilation failed: ${syntaxError(expression, e)}` };
  }
  const positions = parsed.sourceInfo?.positions ?? {};
  const problem = checkReferences(parsed.expr, scope, new Set());
  if (problem) {
    const offset = positions[String(problem.id)] ?? 0;
    return {
      ok: false,
      error: `compilation failed: ${located(expression, offset, problem.message)}`,
    };
  }
  const run = plan(env, parsed);
  return { ok: true, program: (activation) => run(activation as Parameters<typeof run>[0]) };
}

function syntaxError(expression: string, e: unknown): string {
  const err = e as { rawMessage?: string; location?: { start?: { offset?: number } } };
  const offset = err.location?.start?.offset;
  if (err.rawMessage && offset !== undefined)
    return located(expression, offset, `Syntax error: ${err.rawMessage}`);
  return `ERROR: <input>:1:1: Syntax error: ${e instanceof Error ? e.message : String(e)}`;
}

/** `ERROR: <input>:L:C: msg` plus the source line and a caret, as cel-go prints issues. */
function located(expression: string, offset: number, message: string): string {
  const before = expression.slice(0, offset);
  const line = before.split("\n").length;
  const lineStart = before.lastIndexOf("\n") + 1;
  const column = offset - lineStart;
  const text = expression.slice(lineStart).split("\n")[0] ?? "";
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${text}\n | ${".".repeat(column)}^`;
}

interface Problem {
  id: bigint;
  message: string;
}

const undeclared = (id: bigint, name: string): Problem => ({
  id,
  message: `undeclared reference to '${name}' (in container '')`,
});

/** The first reference the environment does not declare, if any. */
function checkReferences(
  expr: Expr | undefined,
  scope: CompileScope,
  locals: ReadonlySet<string>,
): Problem | undefined {
  if (!expr) return undefined;
  const kind = expr.exprKind;
  switch (kind.case) {
    case "identExpr":
      return identProblem(expr.id, kind.value.name, scope, locals);
    case "selectExpr": {
      const operand = kind.value.operand;
      if (
        operand?.exprKind.case === "identExpr" &&
        operand.exprKind.value.name === "variables" &&
        !locals.has("variables")
      ) {
        if (scope.noVariables) return undeclared(operand.id, "variables");
        if (!scope.variables.includes(kind.value.field))
          return { id: expr.id, message: `undefined field '${kind.value.field}'` };
        return undefined;
      }
      return checkReferences(operand, scope, locals);
    }
    case "callExpr": {
      const inner = first([kind.value.target, ...kind.value.args], scope, locals);
      if (inner) return inner;
      const fn = kind.value.function;
      return OPERATOR.test(fn) || env.funcs.find(fn) ? undefined : undeclared(expr.id, fn);
    }
    case "listExpr":
      return first(kind.value.elements, scope, locals);
    case "structExpr":
      if (kind.value.messageName !== "") return undeclared(expr.id, kind.value.messageName);
      return first(
        kind.value.entries.flatMap((e) =>
          e.keyKind.case === "mapKey" ? [e.keyKind.value, e.value] : [e.value],
        ),
        scope,
        locals,
      );
    case "comprehensionExpr": {
      const c = kind.value;
      const outer = first([c.iterRange, c.accuInit], scope, locals);
      if (outer) return outer;
      const inner = new Set([...locals, c.iterVar, c.iterVar2, c.accuVar].filter((v) => v));
      return first([c.loopCondition, c.loopStep, c.result], scope, inner);
    }
    default:
      return undefined;
  }
}

function first(
  exprs: (Expr | undefined)[],
  scope: CompileScope,
  locals: ReadonlySet<string>,
): Problem | undefined {
  for (const e of exprs) {
    const p = checkReferences(e, scope, locals);
    if (p) return p;
  }
  return undefined;
}

function identProblem(
  id: bigint,
  name: string,
  scope: CompileScope,
  locals: ReadonlySet<string>,
): Problem | undefined {
  if (locals.has(name) || REQUEST_VARIABLES.includes(name) || TYPE_NAMES.includes(name))
    return undefined;
  if (name === "params" && scope.hasParams) return undefined;
  if (name === "authorizer")
    return { id, message: "undeclared reference to 'authorizer': not supported by this server" };
  return undeclared(id, name);
}
