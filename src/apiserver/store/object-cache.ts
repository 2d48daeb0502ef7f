/**
 * An in-memory copy of one collection (every namespace's objects of a kind),
 * kept by a list and a storage watch, relisted when the watch breaks — the
 * informer-backed lister kube-apiserver's admission plugins read instead of
 * etcd. Writes through this apiserver under `followed().prefix` wait for
 * `progress` (cache-sync.ts: read-your-writes); writes through another
 * apiserver arrive by the watch, milliseconds later. A caller that has just
 * written an object itself may `remember` the stored result before the watch
 * brings it, as kube's quota accessor keeps the quotas it updated.
 */
import type { KubeObject } from "../../api/index.js";
import type { Backend, StorageEvent } from "../../storage/index.js";
import type { ResourceType } from "../resources/resource-type.js";
import { type FollowedPrefix, followPrefix, WatchProgress } from "./cache-sync.js";
import { collectionPrefix } from "./keys.js";
import { decodeObject } from "./object-store.js";

export type CachedKind = Pick<ResourceType, "group" | "plural" | "namespaced">;

export class ObjectCache {
  /** Objects by namespace ("" for cluster-scoped kinds), then name. */
  private readonly byNamespace = new Map<string, Map<string, KubeObject>>();
  /** How far the watch has delivered (writers wait on it: read-your-writes). */
  readonly progress = new WatchProgress();
  readonly prefix: string;

  constructor(
    private readonly backend: Backend,
    private readonly kind: CachedKind,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {
    this.prefix = collectionPrefix(kind);
  }

  /** Loads the collection, then follows it until `signal` aborts. */
  start(signal: AbortSignal): Promise<void> {
    return followPrefix(
      this.backend,
      this.prefix,
      {
        load: (items) => {
          this.byNamespace.clear();
          for (const kv of items) this.put(decodeObject(kv));
        },
        onEvent: (ev) => this.onEvent(ev),
      },
      { what: `${this.kind.plural} cache`, progress: this.progress, signal, log: this.log },
    );
  }

  followed(): FollowedPrefix {
    return { prefix: this.prefix, progress: this.progress };
  }

  /** The cached object (`namespace` undefined for a cluster-scoped kind). */
  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.byNamespace.get(namespace ?? "")?.get(name);
  }

  /** A namespace's cached objects in name order, as a storage list returns them. */
  list(namespace: string): KubeObject[] {
    const names = this.byNamespace.get(namespace);
    if (!names) return [];
    return [...names.keys()].sort().map((name) => names.get(name)!);
  }

  /**
   * Takes `obj`, just returned by a write of this apiserver, unless the watch has
   * already delivered its revision (the cache then holds it or something newer).
   */
  remember(obj: KubeObject): void {
    if (revisionOf(obj) > this.progress.revision) this.put(obj);
  }

  private onEvent(ev: StorageEvent): void {
    const obj = decodeObject(ev.kv);
    // An object remembered from its write is newer than the events before that write.
    const cached = this.byNamespace.get(this.namespaceOf(obj))?.get(obj.metadata.name ?? "");
    if (!cached || revisionOf(cached) < ev.kv.modRevision) {
      if (ev.type === "delete") this.remove(obj);
      else this.put(obj);
    }
  }

  private namespaceOf(obj: KubeObject): string {
    return this.kind.namespaced ? (obj.metadata.namespace ?? "") : "";
  }

  private put(obj: KubeObject): void {
    const namespace = this.namespaceOf(obj);
    let names = this.byNamespace.get(namespace);
    if (!names) {
      names = new Map();
      this.byNamespace.set(namespace, names);
    }
    names.set(obj.metadata.name ?? "", obj);
  }

  private remove(obj: KubeObject): void {
    const namespace = this.namespaceOf(obj);
    const names = this.byNamespace.get(namespace);
    names?.delete(obj.metadata.name ?? "");
    if (names?.size === 0) this.byNamespace.delete(namespace);
  }
}

function revisionOf(obj: KubeObject): number {
  return Number(obj.metadata.resourceVersion ?? 0);
}
