/**
 * The JSONPath subset of `additionalPrinterColumns`: `.a.b`, `.a[0]`, `.a[*].b`,
 * and filters `[?(@.type=="Ready")]`. Returns every match in order.
 */

type Step =
  | { field: string }
  | { index: number }
  | { all: true }
  | { filter: { path: string[]; value: string } };

function parse(expr: string): Step[] {
  const steps: Step[] = [];
  let s = expr.trim();
  if (s.startsWith("{") && s.endsWith("}")) s = s.slice(1, -1);
  if (s.startsWith("$")) s = s.slice(1);
  const re =
    /\.([A-Za-z0-9_\-$]+)|\[\*\]|\[(\d+)\]|\[\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*["']([^"']*)["']\)\]|\['([^']+)'\]/y;
  let pos = 0;
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) throw new Error(`unsupported JSONPath ${JSON.stringify(expr)} at ${pos}`);
    if (m[1] !== undefined) steps.push({ field: m[1] });
    else if (m[0] === "[*]") steps.push({ all: true });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else if (m[3] !== undefined)
      steps.push({ filter: { path: m[3].slice(1).split("."), value: m[4] ?? "" } });
    else if (m[5] !== undefined) steps.push({ field: m[5] });
    pos = re.lastIndex;
  }
  return steps;
}

function dig(v: unknown, path: string[]): unknown {
  let cur = v;
  for (const p of path) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

export function evaluateJsonPath(expr: string, root: unknown): unknown[] {
  let current: unknown[] = [root];
  for (const step of parse(expr)) {
    const next: unknown[] = [];
    for (const v of current) {
      if (v === undefined || v === null) continue;
      if ("field" in step) {
        if (typeof v === "object" && !Array.isArray(v))
          next.push((v as Record<string, unknown>)[step.field]);
      } else if ("index" in step) {
        if (Array.isArray(v)) next.push(v[step.index]);
      } else if ("all" in step) {
        if (Array.isArray(v)) next.push(...v);
      } else if (Array.isArray(v)) {
        for (const item of v)
          if (String(dig(item, step.filter.path)) === step.filter.value) next.push(item);
      }
    }
    current = next.filter((x) => x !== undefined);
  }
  return current;
}

/** Checks a printer-column path; undefined when valid. */
export function jsonPathError(expr: string): string | undefined {
  try {
    parse(expr);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
