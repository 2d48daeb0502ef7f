/**
 * Small helpers around Client calls: a reference from an object, reading an
 * object that may be absent, and turning any thrown value into text. They
 * replace the hand-written `catch (e) { if (404) … }` blocks.
 */

import type { KubeObject } from "../api/index.js";
import { hasCode } from "../api/index.js";
import type { CallOptions, ObjectRef, Reader } from "./interface.js";

/** The reference that names `obj`, for `get`, `patch` and `delete`. */
export function refOf(obj: KubeObject): ObjectRef {
  const { apiVersion, kind, metadata } = obj;
  return {
    apiVersion,
    kind,
    name: metadata.name ?? "",
    ...(metadata.namespace !== undefined ? { namespace: metadata.namespace } : {}),
  };
}

/**
 * True for a 404 ApiError: the object is absent, or the server does not serve
 * its kind (the mapper's `no matches for kind`).
 */
export function isNotFound(err: unknown): boolean {
  return hasCode(err, 404);
}

/** Resolves to undefined when `p` fails with a 404; any other failure is rethrown. */
export async function ignoreNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** The object, or undefined when it does not exist. */
export function getOptional<T extends KubeObject = KubeObject>(
  r: Pick<Reader, "get">,
  ref: ObjectRef,
  opts?: CallOptions,
): Promise<T | undefined> {
  return ignoreNotFound(r.get<T>(ref, opts));
}

/** The message of an Error (an ApiError's is kube's Status message), else the value as text. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  return String(err);
}
