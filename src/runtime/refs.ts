/**
 * The typed request a reconciler receives and its string key in the work
 * queue. Kinds and objects are named as the client names them (`TypeRef`,
 * `ObjectRef`).
 */
import type { KubeObject } from "../api/index.js";
import type { CallOptions, ObjectRef, TypeRef } from "../client/index.js";

export type { CallOptions, ObjectRef, TypeRef };

/** What a reconciler is asked to look at: one object of its root kind, by name. */
export interface Request {
  namespace?: string;
  name: string;
}

export function typeKey(type: TypeRef): string {
  return `${type.apiVersion}/${type.kind}`;
}

/** `namespace/name` or `name`; names cannot hold a "/", so the key parses back. */
export function requestKey(req: Request): string {
  return req.namespace ? `${req.namespace}/${req.name}` : req.name;
}

export function requestFromKey(key: string): Request {
  const slash = key.indexOf("/");
  if (slash < 0) return { name: key };
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export function requestOf(obj: KubeObject): Request {
  const name = obj.metadata.name ?? "";
  const namespace = obj.metadata.namespace;
  return namespace ? { namespace, name } : { name };
}

/** The API group of an apiVersion (`apps/v1` → `apps`, `v1` → ""). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}
