/**
 * The field selector string (`metadata.name=x,spec.nodeName!=`) parsed as
 * apimachinery's `fields.ParseSelector`: terms split on commas not escaped by a
 * backslash, empty terms skipped, the first `!=`, `==` or `=` splits a term, and
 * values unescaped (`\\`, `\,`, `\=`; any other escape, or a bare `,` or `=`, is an
 * error). Nothing is trimmed: `a = b` selects the field `a ` — kube then refuses it
 * as an unknown field label. Errors carry kube's messages.
 */

export interface FieldRequirement {
  field: string;
  op: "=" | "!=";
  value: string;
}

/** Thrown for a selector that does not parse; the message is kube's. */
export class FieldSelectorError extends Error {}

function splitTerms(selector: string): string[] {
  if (selector === "") return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === "\\") inSlash = true;
    else if (c === ",") {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const OPERATORS = ["!=", "==", "="] as const;

function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of OPERATORS) {
      if (term.startsWith(op, i))
        return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** kube's `UnescapeValue`; a bare `,` or `=` is reported by its code point, as Go's `%v` of a rune. */
function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = "";
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== "\\" && c !== "," && c !== "=")
        throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
      continue;
    }
    if (c === "\\") inSlash = true;
    else if (c === "," || c === "=")
      throw new FieldSelectorError(
        `invalid field selector: unescaped character in value: ${c.codePointAt(0)}`,
      );
    else out += c;
  }
  if (inSlash) throw new FieldSelectorError("invalid field selector: invalid escape sequence: \\");
  return out;
}

/** Parses a field selector string; throws FieldSelectorError with kube's message. */
export function parseFieldRequirements(selector: string): FieldRequirement[] {
  const parts = splitTerms(selector).sort();
  const out: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === "") continue;
    const split = splitTerm(part);
    if (!split)
      throw new FieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeValue(split.rhs);
    out.push({ field: split.lhs, op: split.op === "!=" ? "!=" : "=", value });
  }
  return out;
}
