/**
 * The label selector string (`a=b,c!=d,e in (f,g),!h,n>3`) parsed as apimachinery's
 * `labels.Parse` does: the same lexer (special symbols `=!(),<>`, keywords `in` and
 * `notin`), the same recursive descent, the same validation of keys (qualified
 * names) and values (label values), and the same error texts, so a selector kube
 * refuses is refused here with kube's message — never read as "match everything".
 */
import { labelValue, qualifiedName } from "./names.js";

export type LabelOperator = "=" | "==" | "!=" | "in" | "notin" | "exists" | "!" | "gt" | "lt";

/** One parsed requirement; `values` is sorted and free of duplicates, as kube's set. */
export interface LabelRequirement {
  key: string;
  op: LabelOperator;
  values: string[];
}

/** Thrown for a selector that does not parse; the message is kube's. */
export class LabelSelectorError extends Error {}

type Token =
  | "error"
  | "end"
  | ")"
  | ","
  | "!"
  | "=="
  | "="
  | ">"
  | "id"
  | "in"
  | "<"
  | "!="
  | "notin"
  | "(";

const SYMBOLS: ReadonlySet<string> = new Set([")", ",", "!", "==", "=", ">", "<", "!=", "("]);
const KEYWORDS: ReadonlySet<string> = new Set(["in", "notin"]);
const SPECIAL = "=!(),><";
const WHITE = " \t\r\n";

interface Item {
  tok: Token;
  lit: string;
}

/** kube's Lexer: scans byte by byte; an identifier runs to white space or a special symbol. */
function lex(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && WHITE.includes(s[pos]!)) pos++;
    if (pos >= s.length) {
      items.push({ tok: "end", lit: "" });
      return items;
    }
    if (SPECIAL.includes(s[pos]!)) {
      // Longest run of special symbols that is still a known symbol.
      let buffer = "";
      let last: Item | undefined;
      while (pos < s.length && SPECIAL.includes(s[pos]!)) {
        buffer += s[pos]!;
        if (SYMBOLS.has(buffer)) {
          last = { tok: buffer as Token, lit: buffer };
          pos++;
        } else if (last) {
          break;
        } else {
          pos++;
        }
      }
      items.push(last ?? { tok: "error", lit: `error expected: keyword found '${buffer}'` });
      continue;
    }
    let word = "";
    while (pos < s.length && !SPECIAL.includes(s[pos]!) && !WHITE.includes(s[pos]!)) {
      word += s[pos]!;
      pos++;
    }
    items.push({ tok: KEYWORDS.has(word) ? (word as Token) : "id", lit: word });
  }
}

const BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

/** A Go `%#v` of a []string, as kube's field errors print value sets. */
function goStrings(values: string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(", ")}}`;
}

function keyError(key: string, path: string): string | undefined {
  const errs = qualifiedName(key);
  return errs.length === 0
    ? undefined
    : `${path}: Invalid value: ${JSON.stringify(key)}: ${errs.join("; ")}`;
}

/** kube's `NewRequirement` checks, as one aggregate message (or undefined when valid). */
function requirementErrors(r: LabelRequirement): string | undefined {
  const errs: string[] = [];
  const bad = keyError(r.key, "key");
  if (bad) errs.push(bad);
  const { op, values } = r;
  if ((op === "in" || op === "notin") && values.length === 0)
    errs.push(
      `values: Invalid value: ${goStrings(values)}: for 'in', 'notin' operators, values set can't be empty`,
    );
  if ((op === "=" || op === "==" || op === "!=") && values.length !== 1)
    errs.push(
      `values: Invalid value: ${goStrings(values)}: exact-match compatibility requires one single value`,
    );
  if (op === "gt" || op === "lt") {
    if (values.length !== 1)
      errs.push(
        `values: Invalid value: ${goStrings(values)}: for 'Gt', 'Lt' operators, exactly one value is required`,
      );
    values.forEach((v, i) => {
      if (!/^[+-]?\d+$/.test(v) || !fitsInt64(v))
        errs.push(
          `values[${i}]: Invalid value: ${JSON.stringify(v)}: for 'Gt', 'Lt' operators, the value must be an integer`,
        );
    });
  }
  values.forEach((v, i) => {
    const why = labelValue(v);
    if (why.length > 0)
      errs.push(`values[${i}][${r.key}]: Invalid value: ${JSON.stringify(v)}: ${why.join("; ")}`);
  });
  const unique = [...new Set(errs)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

function fitsInt64(v: string): boolean {
  const n = BigInt(v);
  return n >= INT64_MIN && n <= INT64_MAX;
}

class Parser {
  private position = 0;
  constructor(private readonly items: Item[]) {}

  /** In the Values context `in` and `notin` are identifiers (`x in (in)`). */
  private look(values = true): Item {
    return this.asContext(this.items[this.position]!, values);
  }

  private take(values = true): Item {
    return this.asContext(this.items[this.position++]!, values);
  }

  private asContext(item: Item, values: boolean): Item {
    return values && (item.tok === "in" || item.tok === "notin")
      ? { tok: "id", lit: item.lit }
      : item;
  }

  parse(): LabelRequirement[] {
    const out: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.look();
      if (tok === "end") return out;
      if (tok !== "id" && tok !== "!")
        throw new LabelSelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      let r: LabelRequirement;
      try {
        r = this.requirement();
      } catch (e) {
        if (e instanceof LabelSelectorError)
          throw new LabelSelectorError(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      out.push(r);
      const next = this.take();
      if (next.tok === "end") return out;
      if (next.tok !== ",")
        throw new LabelSelectorError(`found '${next.lit}', expected: ',' or 'end of string'`);
      const after = this.look();
      if (after.tok !== "id" && after.tok !== "!")
        throw new LabelSelectorError(`found '${after.lit}', expected: identifier after ','`);
    }
  }

  private requirement(): LabelRequirement {
    let first = this.take();
    let op: LabelOperator | undefined;
    if (first.tok === "!") {
      op = "!";
      first = this.take();
    }
    if (first.tok !== "id")
      throw new LabelSelectorError(`found '${first.lit}', expected: identifier`);
    const key = first.lit;
    const bad = keyError(key, "<nil>");
    if (bad) throw new LabelSelectorError(bad);
    const after = this.look().tok;
    if (after === "end" || after === ",") op ??= "exists";
    if (op === "exists" || op === "!") return this.checked({ key, op, values: [] });
    const binary = this.operator();
    const values = binary === "in" || binary === "notin" ? this.valueSet() : this.exactValue();
    return this.checked({ key, op: binary, values: [...new Set(values)].sort() });
  }

  private checked(r: LabelRequirement): LabelRequirement {
    const why = requirementErrors(r);
    if (why) throw new LabelSelectorError(why);
    return r;
  }

  private operator(): LabelOperator {
    const { tok, lit } = this.take(false);
    switch (tok) {
      case "in":
      case "notin":
      case "=":
      case "==":
      case "!=":
        return tok;
      case ">":
        return "gt";
      case "<":
        return "lt";
      default:
        throw new LabelSelectorError(`found '${lit}', expected: ${BINARY_OPERATORS}`);
    }
  }

  private valueSet(): string[] {
    const open = this.take();
    if (open.tok !== "(") throw new LabelSelectorError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.look();
    if (tok === ")") {
      this.take();
      return [""];
    }
    if (tok !== "id" && tok !== ",")
      throw new LabelSelectorError(`found '${lit}', expected: ',', ')' or identifier`);
    const values = this.identifiers();
    if (this.take().tok !== ")") throw new LabelSelectorError(`found '${lit}', expected: ')'`);
    return values;
  }

  /** kube's parseIdentifiersList: empty members (`(,a)`, `(a,,b)`, `(a,)`) are the empty string. */
  private identifiers(): string[] {
    const s: string[] = [];
    for (;;) {
      const { tok, lit } = this.take();
      if (tok === "id") {
        s.push(lit);
        const next = this.look();
        if (next.tok === ",") continue;
        if (next.tok === ")") return s;
        throw new LabelSelectorError(`found '${next.lit}', expected: ',' or ')'`);
      }
      if (tok === ",") {
        if (s.length === 0) s.push("");
        const next = this.look().tok;
        if (next === ")") {
          s.push("");
          return s;
        }
        if (next === ",") {
          this.take();
          s.push("");
        }
        continue;
      }
      throw new LabelSelectorError(`found '${lit}', expected: ',', or identifier`);
    }
  }

  private exactValue(): string[] {
    const next = this.look().tok;
    if (next === "end" || next === ",") return [""];
    const { tok, lit } = this.take();
    if (tok === "id") return [lit];
    throw new LabelSelectorError(`found '${lit}', expected: identifier`);
  }
}

/** Parses a label selector string; throws LabelSelectorError with kube's message. */
export function parseLabelRequirements(text: string): LabelRequirement[] {
  const reqs = new Parser(lex(text)).parse();
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** kube's `Requirement.Matches`. */
export function matchesLabel(r: LabelRequirement, value: string | undefined): boolean {
  switch (r.op) {
    case "=":
    case "==":
    case "in":
      return value !== undefined && r.values.includes(value);
    case "!=":
    case "notin":
      return value === undefined || !r.values.includes(value);
    case "exists":
      return value !== undefined;
    case "!":
      return value === undefined;
    case "gt":
    case "lt": {
      if (value === undefined || !/^[+-]?\d+$/.test(value) || !fitsInt64(value)) return false;
      const have = BigInt(value);
      const want = BigInt(r.values[0]!);
      return r.op === "gt" ? have > want : have < want;
    }
  }
}
