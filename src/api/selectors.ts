/**
 * Label and field selectors in their string forms (`a=b,c!=d,e in (f,g),!h`), parsed
 * once and matched many times. Errors are thrown as BadRequest with kube's wording.
 */
import { BadRequestError } from "./errors.js";

export type Requirement =
  | { key: string; op: "=" | "!="; value: string }
  | { key: string; op: "in" | "notin"; values: string[] }
  | { key: string; op: "exists" | "!" };

export interface Selector {
  requirements: Requirement[];
  matches(get: (key: string) => string | undefined): boolean;
  /** True when the selector selects everything. */
  empty: boolean;
}

function makeSelector(requirements: Requirement[]): Selector {
  return {
    requirements,
    empty: requirements.length === 0,
    matches(get) {
      return requirements.every((r) => {
        const v = get(r.key);
        switch (r.op) {
          case "=":
            return v === r.value;
          case "!=":
            return v !== r.value;
          case "in":
            return v !== undefined && r.values.includes(v);
          case "notin":
            return v === undefined || !r.values.includes(v);
          case "exists":
            return v !== undefined;
          case "!":
            return v === undefined;
        }
        return false;
      });
    },
  };
}

/** Splits on commas that are not inside parentheses. */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of s) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t !== "");
}

const SET_TERM = /^([^\s!=()]+)\s+(in|notin)\s*\(([^)]*)\)$/;
const EQ_TERM = /^([^\s!=()]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/;
const KEY = /^[A-Za-z0-9][-A-Za-z0-9_./]*$/;

export function parseLabelSelector(text: string | undefined): Selector {
  if (!text) return makeSelector([]);
  const reqs: Requirement[] = [];
  for (const term of splitTerms(text)) {
    let m = SET_TERM.exec(term);
    if (m) {
      const values = m[3]!
        .split(",")
        .map((v) => v.trim())
        .filter((v) => v !== "");
      reqs.push({ key: checkKey(m[1]!, text), op: m[2] as "in" | "notin", values });
      continue;
    }
    m = EQ_TERM.exec(term);
    if (m) {
      reqs.push({ key: checkKey(m[1]!, text), op: m[2] === "!=" ? "!=" : "=", value: m[3]! });
      continue;
    }
    if (term.startsWith("!")) {
      reqs.push({ key: checkKey(term.slice(1).trim(), text), op: "!" });
      continue;
    }
    reqs.push({ key: checkKey(term, text), op: "exists" });
  }
  return makeSelector(reqs);
}

function checkKey(key: string, text: string): string {
  if (!KEY.test(key))
    throw new BadRequestError(
      `unable to parse requirement: found '${key}', expected: identifier in selector "${text}"`,
    );
  return key;
}

export function parseFieldSelector(text: string | undefined): Selector {
  if (!text) return makeSelector([]);
  const reqs: Requirement[] = [];
  for (const term of splitTerms(text)) {
    const m = /^([^=!]+)(==|=|!=)(.*)$/.exec(term);
    if (!m) throw new BadRequestError(`invalid selector: '${text}'; can't understand '${term}'`);
    reqs.push({ key: m[1]!.trim(), op: m[2] === "!=" ? "!=" : "=", value: m[3]!.trim() });
  }
  return makeSelector(reqs);
}

/** A label selector object (`matchLabels`, `matchExpressions`) as a Selector. */
export function labelSelectorFromObject(sel: {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}): Selector {
  const reqs: Requirement[] = [];
  for (const [key, value] of Object.entries(sel.matchLabels ?? {}))
    reqs.push({ key, op: "=", value });
  for (const e of sel.matchExpressions ?? []) {
    switch (e.operator) {
      case "In":
        reqs.push({ key: e.key, op: "in", values: e.values ?? [] });
        break;
      case "NotIn":
        reqs.push({ key: e.key, op: "notin", values: e.values ?? [] });
        break;
      case "Exists":
        reqs.push({ key: e.key, op: "exists" });
        break;
      case "DoesNotExist":
        reqs.push({ key: e.key, op: "!" });
        break;
      default:
        throw new BadRequestError(`"${e.operator}" is not a valid label selector operator`);
    }
  }
  return makeSelector(reqs);
}
