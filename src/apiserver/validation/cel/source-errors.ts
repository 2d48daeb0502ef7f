/**
 * Compile errors in cel-go's words, since kube returns them verbatim:
 * `ERROR: <input>:1:6: undefined field 'foo'` followed by the source line and a
 * caret under the column, one block per issue, in source order.
 */

export interface SourceIssue {
  /** Character offset into the expression. */
  offset: number;
  message: string;
}

function lineAndColumn(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, Math.max(0, Math.min(offset, source.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: lines[lines.length - 1]!.length };
}

function snippet(source: string, line: number, column: number): string {
  const text = source.split("\n")[line - 1] ?? "";
  return `\n | ${text}\n | ${".".repeat(column)}^`;
}

/** The issues as one string, as cel-go's `Issues.String()`. */
export function formatIssues(source: string, issues: SourceIssue[]): string {
  return [...issues]
    .sort((a, b) => a.offset - b.offset)
    .map((i) => {
      const { line, column } = lineAndColumn(source, i.offset);
      return `ERROR: <input>:${line}:${column + 1}: ${i.message}${snippet(source, line, column)}`;
    })
    .join("\n");
}

/** The offset and message of a parser exception, when it carries a location. */
export function syntaxIssue(e: unknown): SourceIssue {
  const fallback: SourceIssue = { offset: 0, message: `Syntax error: ${String(e)}` };
  if (!(e instanceof Error)) return fallback;
  const located = e as Error & {
    rawMessage?: unknown;
    location?: { start?: { offset?: unknown } };
  };
  const offset = located.location?.start?.offset;
  const raw = typeof located.rawMessage === "string" ? located.rawMessage : e.message;
  return { offset: typeof offset === "number" ? offset : 0, message: `Syntax error: ${raw}` };
}
