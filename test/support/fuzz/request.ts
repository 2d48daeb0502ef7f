/**
 * One request of the fuzz suite, as the runner sends it: the method and the
 * request target exactly as written on the wire (no URL normalisation), the
 * headers, the body — or raw bytes for a fresh socket — and what the generator
 * knows about it: what it is, whether kube surely refuses it and whether kube
 * itself answers it with a 5xx.
 */

export interface FuzzRequest {
  method: string;
  /** Path and query, sent as is. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Bytes written on a fresh socket instead of an HTTP request (malformed framing). */
  raw?: Buffer;
  /** A watch: the runner reads the status and hangs up. */
  watch?: boolean;
  /** What the generator built, for the failure report and the catalogue. */
  what: string;
  /** Why kube surely refuses it (a 2xx is then a failure). */
  mustRefuse?: string;
  /** Why kube itself answers with this 5xx (allowed). */
  kube5xx?: { status: number; why: string };
}

/** The first few hundred characters of a body, printable. */
export function preview(data: Buffer | undefined, max = 400): string {
  if (!data || data.length === 0) return "";
  const text = data.subarray(0, max).toString("latin1");
  let shown = "";
  for (const c of text) {
    const code = c.charCodeAt(0);
    const printable = code === 0x09 || code === 0x0a || (code >= 0x20 && code < 0x7f);
    shown += printable ? c : `\\x${code.toString(16).padStart(2, "0")}`;
  }
  return data.length > max ? `${shown}… (${data.length} bytes)` : shown;
}

/** The request as it went on the wire, for reproducing it by hand. */
export function describe(r: FuzzRequest): string {
  if (r.raw) return `raw bytes: ${preview(r.raw, 600)}`;
  const headers = Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${v.length > 200 ? `${v.slice(0, 200)}… (${v.length})` : v}`)
    .join("\n    ");
  return `${r.method} ${r.target.length > 500 ? `${r.target.slice(0, 500)}…` : r.target}\n    ${headers}\n  body: ${preview(r.body)}`;
}
