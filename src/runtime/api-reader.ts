/**
 * A live Reader in the Manager's shapes (`ObjectRef`, `TypeRef`, options with
 * a signal) over the positional client of today, for the reads a controller
 * must not take from the cache (a decision that cannot act on stale state).
 * A thin adapter: when the client itself takes refs (branch i13-client), the
 * Manager hands out the client instead.
 */
import type { KubeList, KubeObject } from "../api/types.js";
import type { ListOptions, Reader } from "../client/index.js";
import type { CallOptions, ObjectRef, TypeRef } from "./refs.js";

export interface LiveReader {
  get<T extends KubeObject = KubeObject>(ref: ObjectRef, opts?: CallOptions): Promise<T>;
  list<T extends KubeObject = KubeObject>(
    type: TypeRef,
    opts?: ListOptions & CallOptions,
  ): Promise<KubeList<T>>;
}

export function liveReader(client: Reader): LiveReader {
  return {
    get: <T extends KubeObject>(ref: ObjectRef) =>
      client.get<T>(ref.apiVersion, ref.kind, ref.name, ref.namespace),
    list: <T extends KubeObject>(type: TypeRef, opts: ListOptions & CallOptions = {}) => {
      const { signal: _signal, ...list } = opts;
      return client.list<T>(type.apiVersion, type.kind, list);
    },
  };
}
