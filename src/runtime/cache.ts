/**
 * The Manager's cache: one shared informer per kind and scope (namespace,
 * selectors), created on first use and started with the cache, served as a
 * Reader from memory. Reads wait until their informer has synced; objects are
 * deep copies unless the caller promises not to change them (`noCopy`), as
 * controller-runtime's cache copies.
 */

import type { KubeList, KubeObject } from "../api/index.js";
import { NotFoundError, parseLabelSelector } from "../api/index.js";
import type { Reader, ResourceMapper, Watcher } from "../client/index.js";
import { CacheEntry, type IndexFunc, type Scope, scopeKey } from "./cache-entry.js";
import type { Clock } from "./clock.js";
import { untilAborted } from "./lifecycle.js";
import type { CallOptions, ObjectRef, TypeRef } from "./refs.js";
import { groupOf } from "./refs.js";

export interface CacheReadOptions extends CallOptions {
  /** Which informer to read; default: the whole kind. */
  scope?: Scope;
  /** Return the cached objects themselves; the caller must not change them. */
  noCopy?: boolean;
}

export interface CacheListOptions extends CacheReadOptions {
  /** Filters in memory, within the scope. */
  namespace?: string;
  labelSelector?: string;
  /** Only objects filed under `value` in the index `name` (see `Cache.index`). */
  index?: { name: string; value: string };
}

export interface CacheOptions {
  onError?(what: string, err: unknown): void;
  /** The time informers wait on before retrying a failed list or watch (default: the machine's). */
  clock?: Clock;
}

type ListWatch = Reader & Watcher & { readonly mapper: ResourceMapper };

export class Cache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly running: Promise<void>[] = [];
  private signal: AbortSignal | undefined;

  constructor(
    private readonly client: ListWatch,
    private readonly opts: CacheOptions = {},
  ) {}

  /** The shared informer of `type` in `scope`, created (and started, if the cache runs) on first use. */
  informer(type: TypeRef, scope: Scope = {}): CacheEntry {
    const key = scopeKey(type, scope);
    let entry = this.entries.get(key);
    if (entry) return entry;
    const onError = (e: unknown) => this.opts.onError?.(`${type.kind} informer`, e);
    entry = new CacheEntry(this.client, type, scope, onError, this.opts.clock);
    this.entries.set(key, entry);
    if (this.signal) this.run(entry, this.signal);
    return entry;
  }

  /** The shared informer of `type` in `scope` if another reader created it; creates none. */
  existing(type: TypeRef, scope: Scope = {}): CacheEntry | undefined {
    return this.entries.get(scopeKey(type, scope));
  }

  /**
   * Stops and forgets the informer of `type` in `scope`: for a kind the server
   * no longer serves (a removed CRD), which no reader can want any more.
   */
  drop(type: TypeRef, scope: Scope = {}): void {
    const key = scopeKey(type, scope);
    this.entries.get(key)?.stop.abort();
    this.entries.delete(key);
  }

  private run(entry: CacheEntry, signal: AbortSignal): void {
    const stop = () => entry.stop.abort();
    signal.addEventListener("abort", stop, { once: true });
    const done = entry.informer.run(entry.stop.signal).finally(() => {
      signal.removeEventListener("abort", stop);
    });
    this.running.push(done);
  }

  /** Files objects of `type` under the values `fn` returns, for `list(type, {index})`. */
  index(type: TypeRef, name: string, fn: IndexFunc, scope: Scope = {}): void {
    this.informer(type, scope).addIndex(name, fn);
  }

  /** Runs every informer, present and future, until `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.signal) throw new Error("cannot start the cache: it is running already");
    this.signal = signal;
    for (const entry of this.entries.values()) this.run(entry, signal);
    await untilAborted(signal);
    // Informers created while stopping are included: wait until none is left.
    for (let n = 0; n < this.running.length; n = this.running.length) {
      await Promise.all(this.running.slice(n));
    }
  }

  /** True when every informer has listed once. */
  hasSynced(): boolean {
    return [...this.entries.values()].every((e) => e.informer.hasSynced());
  }

  /** Resolves true once every informer created so far has synced, false if `signal` aborts first. */
  async waitForCacheSync(signal: AbortSignal): Promise<boolean> {
    for (const entry of [...this.entries.values()]) {
      if (!(await entry.informer.waitForSync(signal))) return false;
    }
    return !signal.aborted;
  }

  /** Throws a NotFound ApiError, as the API would, when the object is not cached. */
  async get<T extends KubeObject = KubeObject>(
    ref: ObjectRef,
    opts: CacheReadOptions = {},
  ): Promise<T> {
    const entry = await this.synced(ref, opts);
    const key = ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
    const obj = entry.informer.get(key);
    if (!obj) {
      const { plural } = await this.client.mapper.resolve(ref.apiVersion, ref.kind);
      throw new NotFoundError({ group: groupOf(ref.apiVersion), resource: plural, name: ref.name });
    }
    return (opts.noCopy ? obj : structuredClone(obj)) as T;
  }

  async list<T extends KubeObject = KubeObject>(
    type: TypeRef,
    opts: CacheListOptions = {},
  ): Promise<KubeList<T>> {
    const entry = await this.synced(type, opts);
    let items = opts.index
      ? entry.byIndex(opts.index.name, opts.index.value)
      : entry.informer.list();
    if (opts.namespace) items = items.filter((o) => o.metadata.namespace === opts.namespace);
    if (opts.labelSelector) {
      const selector = parseLabelSelector(opts.labelSelector);
      items = items.filter((o) => selector.matches((k) => o.metadata.labels?.[k]));
    }
    return {
      apiVersion: type.apiVersion,
      kind: `${type.kind}List`,
      metadata: {},
      items: (opts.noCopy ? items : structuredClone(items)) as T[],
    };
  }

  private async synced(type: TypeRef, opts: CacheReadOptions): Promise<CacheEntry> {
    if (!this.signal) throw new Error(`cannot read ${type.kind} from the cache: it is not started`);
    const entry = this.informer(type, opts.scope);
    if (entry.informer.hasSynced()) return entry;
    const signal = opts.signal ? AbortSignal.any([opts.signal, this.signal]) : this.signal;
    if (!(await entry.informer.waitForSync(signal))) {
      throw new Error(`cannot read ${type.kind} from the cache: stopped before it synced`);
    }
    return entry;
  }
}
