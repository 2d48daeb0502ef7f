/**
 * Opaque `continue` tokens of paged lists, shaped like kube-apiserver's:
 * base64url of `{"v":"meta.k8s.io/v1","rv":R,"start":key}`. Every page of one list
 * is read at the first page's revision R.
 */
import { BadRequestError } from "../../api/errors.js";

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

export function decodeContinue(token: string, prefix: string): ContinuePoint {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch (cause) {
    throw new BadRequestError(`continue key is not valid: ${String(cause)}`, { cause });
  }
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (p.v !== "meta.k8s.io/v1" || typeof p.rv !== "number" || typeof p.start !== "string") {
    throw new BadRequestError(
      "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
    );
  }
  if (!p.start.startsWith(prefix))
    throw new BadRequestError("continue key is not valid: key is outside of the listed collection");
  return { revision: p.rv, after: p.start };
}
