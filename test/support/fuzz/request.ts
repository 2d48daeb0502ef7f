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
  /**
   * Why kube itself answers with this 5xx (allowed): only this status, and only
   * with a Status message matching `message`, so no other 5xx hides behind it.
   */
  kube5xx?: { status: number; why: string; message: RegExp };
}

/**
 * Whether kube may answer `r` with a watch stream: a flagged watch, or a GET whose
 * query carries `watch` with any value but "false"/"0" — kube's RequestInfo
 * decodes `watch` as a bool parameter where an empty value is true
 * (`?watch` alone starts a watch), wherever the generator put it.
 */
export function mayWatch(r: FuzzRequest): boolean {
  if (r.watch) return true;
  if (r.method !== "GET") return false;
  const q = r.target.indexOf("?");
  if (q < 0) return false;
  for (const pair of r.target.slice(q + 1).split("&")) {
    const eq = pair.indexOf("=");
    if ((eq < 0 ? pair : pair.slice(0, eq)) !== "watch") continue;
    const value = eq < 0 ? "" : pair.slice(eq + 1).toLowerCase();
    return value !== "false" && value !== "0";
  }
  return false;
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
