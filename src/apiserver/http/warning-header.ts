/**
 * `Warning` response headers as kube-apiserver's warning recorder writes them
 * (k8s.io/apiserver/pkg/endpoints/filters/warning.go, with
 * k8s.io/apimachinery/pkg/util/net NewWarningHeader):
 * - each distinct text once, as `299 - "text"` with `"` and `\` escaped;
 * - a text with a control character (or not valid UTF-8) is dropped, never sent;
 * - at most 4096 runes of text in all: once over, every text is cut to 256 runes
 *   and texts past the 4096 are dropped.
 * Header values are returned as Node writes them (latin1 code units), holding
 * the UTF-8 bytes of the text, so a text in any script reaches the wire as kube
 * sends it instead of making Node refuse the header.
 */

const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

/** Go's unicode.IsControl: C0, DEL and C1. */
function hasControl(runes: string[]): boolean {
  return runes.some((r) => {
    const c = r.codePointAt(0) ?? 0;
    return c < 0x20 || (c >= 0x7f && c < 0xa0);
  });
}

/** A lone surrogate is what "not valid UTF-8" looks like in a JS string. */
function hasLoneSurrogate(runes: string[]): boolean {
  return runes.some((r) => {
    const c = r.codePointAt(0) ?? 0;
    return c >= 0xd800 && c <= 0xdfff;
  });
}

function header(runes: string[]): string | undefined {
  if (hasControl(runes) || hasLoneSurrogate(runes)) return undefined;
  const quoted = `"${runes.map((r) => (r === '"' || r === "\\" ? `\\${r}` : r)).join("")}"`;
  return Buffer.from(`299 - ${quoted}`, "utf8").toString("latin1");
}

/**
 * The `Warning` header values for `texts`, added in order as kube's recorder
 * adds them: while the texts written fit in 4096 runes each is written whole;
 * the one that would overflow turns truncation on, and all texts so far are
 * written again cut to 256 runes; after that each new text is cut and written
 * until 4096 runes have been written.
 */
export function warningHeaderValues(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const ordered: string[][] = [];
  let out: string[] = [];
  let written = 0;
  let truncating = false;
  for (const text of texts) {
    if (text.length === 0) continue;
    if (truncating && written >= TRUNCATE_AT_TOTAL_RUNES) break;
    if (seen.has(text)) continue;
    seen.add(text);
    const runes = [...text];
    ordered.push(runes);
    const cut = truncating ? runes.slice(0, TRUNCATE_ITEM_RUNES) : runes;
    const value = header(cut);
    if (value === undefined) continue;
    if (truncating || written + cut.length <= TRUNCATE_AT_TOTAL_RUNES) {
      written += cut.length;
      out.push(value);
      continue;
    }
    truncating = true;
    written = 0;
    out = [];
    for (const earlier of ordered) {
      const short = earlier.slice(0, TRUNCATE_ITEM_RUNES);
      const again = header(short);
      if (again === undefined) continue;
      written += short.length;
      out.push(again);
    }
  }
  return out;
}
