/**
 * Where the apps engine reads: the Manager's cache, through informers the
 * process runs anyway — each app kind's own, its children's (one per declared
 * child kind, by the group label, `child-watch.ts`), the Namespaces' (shared
 * with the namespace controller in `hearth up`) and those of other
 * controllers — and live only where the cache cannot answer right:
 *
 * - A cached copy is used as it is: a stale one is at most an event behind,
 *   and that event wakes the app (only kinds it watches are read this way; the
 *   informer stores an object before its handlers enqueue the app), so the
 *   next pass reads it.
 * - A miss is confirmed live, except where the object's creation itself wakes
 *   the app (the values Secret): the informer may not yet hold what was created
 *   a moment ago — the engine's own apply of the last pass, whose creation
 *   event `child-watch.ts` ignores — and "gone" ends waits that cannot be undone.
 * - What this pass applied is read as the apply answered (`PassReader.wrote`):
 *   the cache may still hold the copy from before the write.
 * - An informer that has not synced (a kind not served yet) is not waited on.
 * - Kinds the app does not watch are read live: no event would correct a stale
 *   copy, and an informer of their own would add a WATCH that wakes nobody.
 *
 * Without a cache (a reconciler run on its own, as unit tests do) every read is live.
 */
import type { KubeList, KubeObject } from "../../api/index.js";
import { NotFoundError, parseLabelSelector } from "../../api/index.js";
import {
  type CallOptions,
  getOptional,
  type ListOptions,
  type ObjectRef,
  type Reader,
  type TypeRef,
} from "../../client/index.js";
import type { Cache, CacheEntry, Scope } from "../../runtime/index.js";
import { CHILD_SCOPE } from "./child-watch.js";
import { readContext, VALUES_SECRET } from "./context.js";
import type { EngineContext } from "./engine-context.js";
import {
  APPS_GROUP,
  type App,
  type InventoryEntry,
  LABEL_APP_GROUP,
  type TenantContext,
} from "./module.js";

export const NAMESPACE_TYPE: TypeRef = { apiVersion: "v1", kind: "Namespace" };
const SECRET_TYPE: TypeRef = { apiVersion: "v1", kind: "Secret" };

const sameType = (a: TypeRef, b: TypeRef) => a.apiVersion === b.apiVersion && a.kind === b.kind;
const keyOf = (ref: TypeRef & { name?: string | undefined; namespace?: string | undefined }) =>
  `${ref.apiVersion}/${ref.kind}/${ref.namespace ?? ""}/${ref.name ?? ""}`;
const cacheKey = (ref: { name: string; namespace?: string | undefined }) =>
  ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;

/** The informer of `type` in `scope` if the cache runs one that has synced; creates none. */
function synced(cache: Cache | undefined, type: TypeRef, scope: Scope): CacheEntry | undefined {
  const entry = cache?.existing(type, scope);
  return entry?.informer.hasSynced() ? entry : undefined;
}

/** True when every object `labelSelector` matches carries the group label, so is in a child informer. */
function pinsGroup(labelSelector: string | undefined): boolean {
  const terms = (labelSelector ?? "").split(",").map((t) => t.replaceAll(" ", ""));
  const group = `${LABEL_APP_GROUP}=${APPS_GROUP}`;
  return terms.includes(group) || terms.includes(`${LABEL_APP_GROUP}==${APPS_GROUP}`);
}

/** Options a cache cannot serve (it holds only the newest copy of everything, unpaged). */
const needsServer = (o: ListOptions) =>
  o.fieldSelector !== undefined ||
  o.limit !== undefined ||
  o.continue !== undefined ||
  o.resourceVersion !== undefined;

/**
 * One reconcile's reader of an app's children: the child informers of the
 * kinds its module declares, what this pass wrote on top, live otherwise.
 */
export class PassReader implements Reader {
  private readonly written = new Map<string, KubeObject>();

  constructor(
    private readonly live: Reader,
    private readonly cache: Cache | undefined,
    /** The kinds whose events wake the app (`AppModule.childKinds`). */
    private readonly watched: readonly TypeRef[],
    /** The app's inventory: children a list must hold even before the informer saw them. */
    private readonly inventory: readonly InventoryEntry[],
  ) {}

  /** Remembers the object a write of this pass answered, to be read instead of the cached copy. */
  wrote(obj: KubeObject): void {
    this.written.set(keyOf({ ...obj, ...obj.metadata }), obj);
  }

  async get<T extends KubeObject = KubeObject>(ref: ObjectRef, opts?: CallOptions): Promise<T> {
    const own = this.written.get(keyOf(ref));
    if (own) return structuredClone(own) as T;
    const hit = this.informer(ref)?.informer.get(cacheKey(ref));
    if (hit) return structuredClone(hit) as T;
    // A miss may be an object created a moment ago: only the server can say it is not there.
    return this.live.get<T>(ref, opts);
  }

  async list<T extends KubeObject = KubeObject>(
    type: TypeRef,
    opts: ListOptions & CallOptions = {},
  ): Promise<KubeList<T>> {
    const entry = this.informer(type);
    // Objects without the group label are in no child informer: only the server has them all.
    if (!entry || !pinsGroup(opts.labelSelector) || needsServer(opts))
      return this.live.list<T>(type, opts);
    const selector = parseLabelSelector(opts.labelSelector ?? "");
    const matches = (o: KubeObject) =>
      (opts.namespace === undefined || o.metadata.namespace === opts.namespace) &&
      selector.matches((k) => o.metadata.labels?.[k]);
    const found = new Map<string, KubeObject>();
    for (const o of entry.informer.list())
      if (matches(o)) found.set(keyOf({ ...type, ...o.metadata }), o);
    for (const e of this.inventory) {
      const key = keyOf(e);
      if (!sameType(e, type) || this.written.has(key) || entry.informer.get(cacheKey(e))) continue;
      if (opts.namespace !== undefined && e.namespace !== opts.namespace) continue;
      // A child the engine applied that the informer has not seen yet.
      const o = await getOptional(this.live, e, opts);
      if (o && matches(o)) found.set(key, o);
    }
    for (const [key, o] of this.written) {
      if (!sameType(o, type)) continue;
      if (matches(o)) found.set(key, o);
      else found.delete(key);
    }
    return {
      apiVersion: type.apiVersion,
      kind: `${type.kind}List`,
      metadata: {},
      items: structuredClone([...found.values()]) as T[],
    };
  }

  private informer(type: TypeRef): CacheEntry | undefined {
    if (!this.watched.some((t) => sameType(t, type))) return undefined;
    return synced(this.cache, type, CHILD_SCOPE);
  }
}

/**
 * A reader for module code that runs on a timer (hooks, teardown waves): the
 * process's whole-kind informer of a kind when one has synced, live otherwise.
 * Such code is asked again soon, and the engine confirms a wait the cache says
 * is over with a live read before moving past it (`teardown.ts`).
 */
export function sharedReader(live: Reader, cache: Cache | undefined): Reader {
  return {
    get: async <T extends KubeObject = KubeObject>(ref: ObjectRef, opts?: CallOptions) => {
      const entry = synced(cache, ref, {});
      if (!entry) return live.get<T>(ref, opts);
      const hit = entry.informer.get(cacheKey(ref));
      if (!hit) throw new NotFoundError({ group: "", resource: ref.kind, name: ref.name });
      return structuredClone(hit) as T;
    },
    list: async <T extends KubeObject = KubeObject>(
      type: TypeRef,
      opts: ListOptions & CallOptions = {},
    ) => {
      const entry = synced(cache, type, {});
      if (!entry || needsServer(opts)) return live.list<T>(type, opts);
      const selector = parseLabelSelector(opts.labelSelector ?? "");
      const items = entry.informer
        .list()
        .filter(
          (o) =>
            (opts.namespace === undefined || o.metadata.namespace === opts.namespace) &&
            selector.matches((k) => o.metadata.labels?.[k]),
        );
      const list: KubeList<T> = {
        apiVersion: type.apiVersion,
        kind: `${type.kind}List`,
        metadata: {},
        items: structuredClone(items) as T[],
      };
      return list;
    },
  };
}

/**
 * The tenant context `app` renders with. The app's Namespace comes from the
 * whole-kind Namespace informer (the engine registers it, `engine.ts`); a miss
 * is read live, for the namespace exists while the app does. The values
 * Secret comes from the Secrets the engine applied: a miss is taken as none,
 * because its creation wakes the apps of its namespace (`child-watch.ts`).
 */
export async function tenantContext(engine: EngineContext, app: App): Promise<TenantContext> {
  const ns = app.metadata.namespace!;
  const ref = { ...NAMESPACE_TYPE, name: ns };
  const cachedNs = synced(engine.cache, NAMESPACE_TYPE, {})?.informer.get(ns);
  const appNamespace = cachedNs ? structuredClone(cachedNs) : await getOptional(engine.client, ref);
  const secrets = synced(engine.cache, SECRET_TYPE, CHILD_SCOPE);
  const values: Pick<Reader, "get"> = secrets
    ? {
        get: async <T extends KubeObject>(r: ObjectRef) => {
          const hit = secrets.informer.get(cacheKey(r));
          if (!hit)
            throw new NotFoundError({ group: "", resource: "secrets", name: VALUES_SECRET });
          return structuredClone(hit) as T;
        },
      }
    : engine.client;
  return { cluster: engine.cluster, namespace: await readContext(values, ns), appNamespace };
}
