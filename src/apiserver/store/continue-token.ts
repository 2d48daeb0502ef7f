/**
 * Opaque `continue` tokens of paged lists, shaped like kube-apiserver's:
 * base64url of `{"v":"meta.k8s.io/v1","rv":R,"start":key}`. Every page of one list
 * is read at the first page's revision R.
 */
import { BadRequestError } from "../../api/index.js";

export interface ContinuePoint {
  revision: number;
  /** The last key returned; the next page starts strictly after it. */
  after: string;
}

export function encodeContinue(p: ContinuePoint): string {
  return Buffer.from(
    JSON.stringify({ v: "meta.k8s.io/v1", rv: p.revision, start: p.after }),
  ).toString("base64url");
}

/**
 * Reads a token as kube's `storage.DecodeContinue`, with its messages under
 * "invalid continue token: " (400): the token must be base64url of a JSON object
 * with `v` "meta.k8s.io/v1", a non-zero integer `rv` and a non-empty `start` key
 * inside the listed collection. Anything else — `null`, `[]`, a string, a
 * fractional revision — is refused, never read.
 */
export function decodeContinue(token: string, prefix: string): ContinuePoint {
  let parsed: unknown;
  try {
    // Buffer's decoder skips characters outside the alphabet; kube's refuses them.
    if (!/^[A-Za-z0-9_-]*={0,2}$/.test(token)) throw new Error("illegal base64 data");
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch (cause) {
    throw invalid(`continue key is not valid: ${(cause as Error).message}`, cause);
  }
  // `null` decodes to an empty token in Go (and so fails on its version); other non-objects do not decode.
  if (typeof parsed !== "object" || Array.isArray(parsed))
    throw invalid(
      `continue key is not valid: json: cannot unmarshal ${jsonKind(parsed)} into Go value of type storage.continueToken`,
    );
  const p = (parsed ?? {}) as { v?: unknown; rv?: unknown; start?: unknown };
  if (p.v !== "meta.k8s.io/v1")
    throw invalid(
      `continue key is not valid: server does not recognize this encoded version ${typeof p.v === "string" ? p.v : ""}`,
    );
  if (typeof p.rv !== "number" || !Number.isSafeInteger(p.rv) || p.rv === 0)
    throw invalid(
      "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
    );
  if (typeof p.start !== "string" || p.start === "")
    throw invalid("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)");
  if (!p.start.startsWith(prefix))
    throw invalid("continue key is not valid: key is outside of the listed collection");
  // A negative revision is kube's "continue at the latest revision" (its tokens after compaction).
  return { revision: Math.max(p.rv, 0), after: p.start };
}

function invalid(message: string, cause?: unknown): BadRequestError {
  return new BadRequestError(`invalid continue token: ${message}`, { cause });
}

function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}
