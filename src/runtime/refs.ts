/**
 * The shapes the Manager speaks in: a kind (`TypeRef`), one object
 * (`ObjectRef`), per-call options with an AbortSignal, and the typed request a
 * reconciler receives. They follow the client interface being introduced on
 * branch i13-client; until it lands, `api-reader.ts` adapts the positional
 * client to them.
 */
import type { KubeObject } from "../api/types.js";

export interface TypeRef {
  apiVersion: string;
  kind: string;
}

export interface ObjectRef extends TypeRef {
  name: string;
  namespace?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

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

export function refOf(obj: KubeObject): ObjectRef {
  return { apiVersion: obj.apiVersion, kind: obj.kind, ...requestOf(obj) };
}

/** The API group of an apiVersion (`apps/v1` → `apps`, `v1` → ""). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}
