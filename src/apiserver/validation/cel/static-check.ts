/**
 * The schema-aware checks cel-go's type checker makes when kube compiles a rule,
 * done on the parsed expression: undeclared identifiers and functions, fields
 * that the schema does not declare, field selection on scalars, and a result
 * that cannot be a bool. Types are tracked only as far as the schema tells
 * (paths from `self`, comprehension variables over them, literals, operators);
 * everything else is `dyn` and left to run time.
 */
import type { parse } from "@bufbuild/cel";
import type { Schema } from "../../../api/index.js";
import { KNOWN_FUNCTIONS, OLD_SELF, SELF, TYPE_NAMES } from "./environment.js";
import type { SourceIssue } from "./source-errors.js";
import { escapePropertyName, hasStructure } from "./values.js";

type Expr = ReturnType<typeof parse>["expr"];

/** What is known of an expression's type: a schema node, a CEL type name, or nothing. */
interface Known {
  schema?: Schema;
  root?: boolean;
  type: string;
}

const DYN: Known = { type: "dyn" };

const BOOL_FUNCTIONS = new Set([
  "_&&_",
  "_||_",
  "!_",
  "_==_",
  "_!=_",
  "_<_",
  "_<=_",
  "_>_",
  "_>=_",
  "@in",
  "@not_strictly_false",
  "contains",
  "startsWith",
  "endsWith",
  "matches",
  "isSorted",
  "hasValue",
]);
const STRING_FUNCTIONS = new Set(["string", "lowerAscii", "upperAscii", "replace", "trim"]);
const INT_FUNCTIONS = new Set(["size", "int", "indexOf", "lastIndexOf"]);
const ROOT_META: Schema = {
  type: "object",
  properties: { name: { type: "string" }, generateName: { type: "string" } },
};

export interface CheckResult {
  issues: SourceIssue[];
  /** The expression's type as far as known (`dyn` when not). */
  type: string;
  usesOldSelf: boolean;
}

export function celTypeOf(schema: Schema): string {
  if (schema["x-kubernetes-int-or-string"]) return "dyn";
  switch (schema.type) {
    case "integer":
      return "int";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    case "string":
      return "string";
    case "array":
      return "list";
    case "object":
      return "map";
    default:
      return "dyn";
  }
}

function fromSchema(schema: Schema | undefined, root = false): Known {
  if (!hasStructure(schema)) return DYN;
  return { schema, root, type: celTypeOf(schema) };
}

class Checker {
  readonly issues: SourceIssue[] = [];
  usesOldSelf = false;

  constructor(private readonly positions: Record<string, number>) {}

  private report(e: Expr, message: string): void {
    this.issues.push({ offset: this.positions[String(e.id)] ?? 0, message });
  }

  check(e: Expr, scope: ReadonlyMap<string, Known>): Known {
    const k = e.exprKind;
    switch (k.case) {
      case "constExpr":
        return { type: constType(k.value.constantKind.case) };
      case "identExpr": {
        const found = scope.get(k.value.name);
        if (k.value.name === OLD_SELF && found) this.usesOldSelf = true;
        if (found) return found;
        if (TYPE_NAMES.has(k.value.name)) return { type: "type" };
        this.report(e, `undeclared reference to '${k.value.name}' (in container '')`);
        return DYN;
      }
      case "selectExpr": {
        const operand = this.check(k.value.operand!, scope);
        const field = this.select(e, operand, k.value.field);
        return k.value.testOnly ? { type: "bool" } : field;
      }
      case "callExpr":
        return this.call(e, k.value.function, k.value.target, k.value.args, scope);
      case "listExpr":
        for (const el of k.value.elements) this.check(el, scope);
        return { type: "list" };
      case "structExpr":
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === "mapKey") this.check(entry.keyKind.value, scope);
          if (entry.value) this.check(entry.value, scope);
        }
        return { type: "map" };
      case "comprehensionExpr": {
        const c = k.value;
        const range = this.check(c.iterRange!, scope);
        const accu = this.check(c.accuInit!, scope);
        const inner = new Map(scope);
        inner.set(c.iterVar, elementOf(range));
        inner.set(c.accuVar, accu);
        this.check(c.loopCondition!, inner);
        this.check(c.loopStep!, inner);
        return this.check(c.result!, inner);
      }
      default:
        return DYN;
    }
  }

  private select(e: Expr, operand: Known, field: string): Known {
    const s = operand.schema;
    if (!s) return DYN;
    if (operand.root || s["x-kubernetes-embedded-resource"]) {
      if (field === "apiVersion" || field === "kind") return { type: "string" };
      if (field === "metadata") return fromSchema(ROOT_META);
    }
    if (s.type === "object" && s.properties) {
      const entry = Object.entries(s.properties).find(([n]) => escapePropertyName(n) === field);
      if (entry) return fromSchema(entry[1]);
      if (!s["x-kubernetes-preserve-unknown-fields"]) this.report(e, `undefined field '${field}'`);
      return DYN;
    }
    if (s.type === "object") {
      const extra = s.additionalProperties;
      return typeof extra === "object" ? fromSchema(extra) : DYN;
    }
    if (operand.type !== "dyn")
      this.report(e, `type '${operand.type}' does not support field selection`);
    return DYN;
  }

  private call(
    e: Expr,
    name: string,
    target: Expr | undefined,
    args: Expr[],
    scope: ReadonlyMap<string, Known>,
  ): Known {
    if (!KNOWN_FUNCTIONS.has(name))
      this.report(e, `undeclared reference to '${name}' (in container '')`);
    if (target) this.check(target, scope);
    const argTypes = args.map((a) => this.check(a, scope));
    if (BOOL_FUNCTIONS.has(name)) return { type: "bool" };
    if (STRING_FUNCTIONS.has(name)) return { type: "string" };
    if (INT_FUNCTIONS.has(name)) return { type: "int" };
    if (name === "double") return { type: "double" };
    if (name === "_?_:_") return argTypes[1] ?? DYN;
    if (name === "_[_]") return elementOf(argTypes[0] ?? DYN, true);
    if (["_+_", "_-_", "_*_", "_/_", "_%_", "-_"].includes(name)) {
      const first = argTypes[0]?.type ?? "dyn";
      return { type: first === "list" ? "list" : first };
    }
    if (name === "split" || name === "findAll") return { type: "list" };
    if (name === "find" || name === "charAt" || name === "substring" || name === "join")
      return { type: "string" };
    return DYN;
  }
}

/** The type of an element of a list, the keys of a map (or the values, for indexing). */
function elementOf(range: Known, values = false): Known {
  const s = range.schema;
  if (!s) return DYN;
  if (s.type === "array") return fromSchema(s.items);
  if (s.type === "object") {
    if (!values) return { type: "string" };
    return typeof s.additionalProperties === "object" ? fromSchema(s.additionalProperties) : DYN;
  }
  return DYN;
}

function constType(kind: string | undefined): string {
  switch (kind) {
    case "boolValue":
      return "bool";
    case "int64Value":
      return "int";
    case "uint64Value":
      return "uint";
    case "doubleValue":
      return "double";
    case "stringValue":
      return "string";
    case "bytesValue":
      return "bytes";
    case "nullValue":
      return "null_type";
    default:
      return "dyn";
  }
}

/**
 * Checks a parsed expression against the schema of the node it is declared on.
 * `oldSelf` is in scope with that schema (as an optional when `optionalOldSelf`).
 */
export function checkExpression(
  parsed: ReturnType<typeof parse>,
  schema: Schema,
  root: boolean,
  optionalOldSelf: boolean,
): CheckResult {
  const positions: Record<string, number> = {};
  for (const [id, offset] of Object.entries(parsed.sourceInfo?.positions ?? {}))
    positions[id] = offset;
  const checker = new Checker(positions);
  const self = fromSchema(schema, root);
  const scope = new Map<string, Known>([
    [SELF, self],
    [OLD_SELF, optionalOldSelf ? DYN : self],
  ]);
  const result = checker.check(parsed.expr, scope);
  return { issues: checker.issues, type: result.type, usesOldSelf: checker.usesOldSelf };
}
