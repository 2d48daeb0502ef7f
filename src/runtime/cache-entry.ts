/**
 * One shared informer of the Manager's cache and the indexes kept over it:
 * an index maps each value its function returns for an object to the keys of
 * the objects that returned it, updated on every event the informer delivers.
 */
import type { KubeObject } from "../api/index.js";
import type { Reader, Watcher } from "../client/index.js";
import type { Clock } from "./clock.js";
import { Informer, type InformerHandlers, objectKey } from "./informer.js";
import type { TypeRef } from "./refs.js";

/** Which objects one informer holds: a namespace and/or selectors sent to the server. */
export interface Scope {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** The values an object is filed under in an index (e.g. its `spec.nodeName`). */
export type IndexFunc = (obj: KubeObject) => string[];

interface Index {
  fn: IndexFunc;
  keys: Map<string, Set<string>>;
}

export function scopeKey(type: TypeRef, scope: Scope = {}): string {
  const { namespace = "", labelSelector = "", fieldSelector = "" } = scope;
  return [type.apiVersion, type.kind, namespace, labelSelector, fieldSelector].join("\0");
}

export class CacheEntry {
  readonly informer: Informer;
  /** Stops this informer alone (see `Cache.drop`). */
  readonly stop = new AbortController();
  private readonly indexes = new Map<string, Index>();

  constructor(
    client: Reader & Watcher,
    readonly type: TypeRef,
    readonly scope: Scope,
    onError: (err: unknown) => void,
    clock?: Clock,
  ) {
    this.informer = new Informer(client, {
      ...type,
      ...scope,
      onError,
      ...(clock ? { clock } : {}),
    });
    this.informer.addHandlers({
      onAdd: (obj) => this.file(obj),
      onUpdate: (old, obj) => {
        this.unfile(old);
        this.file(obj);
      },
      onDelete: (obj) => this.unfile(obj),
    });
  }

  addHandlers(h: InformerHandlers): void {
    this.informer.addHandlers(h);
  }

  /** Adds an index; objects already cached are filed at once. A second `name` is refused. */
  addIndex(name: string, fn: IndexFunc): void {
    if (this.indexes.has(name)) {
      throw new Error(`cannot add index "${name}" to ${this.type.kind}: it exists already`);
    }
    const index: Index = { fn, keys: new Map() };
    this.indexes.set(name, index);
    for (const obj of this.informer.list()) fileIn(index, obj);
  }

  hasIndex(name: string): boolean {
    return this.indexes.has(name);
  }

  /** Cached objects filed under `value` in index `name`. */
  byIndex(name: string, value: string): KubeObject[] {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`cannot list ${this.type.kind} by index "${name}": no such index`);
    const out: KubeObject[] = [];
    for (const key of index.keys.get(value) ?? []) {
      const obj = this.informer.get(key);
      if (obj) out.push(obj);
    }
    return out;
  }

  private file(obj: KubeObject): void {
    for (const index of this.indexes.values()) fileIn(index, obj);
  }

  private unfile(obj: KubeObject): void {
    const key = objectKey(obj);
    for (const index of this.indexes.values()) {
      for (const value of index.fn(obj)) {
        const keys = index.keys.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.keys.delete(value);
      }
    }
  }
}

function fileIn(index: Index, obj: KubeObject): void {
  const key = objectKey(obj);
  for (const value of index.fn(obj)) {
    const keys = index.keys.get(value);
    if (keys) keys.add(key);
    else index.keys.set(value, new Set([key]));
  }
}
