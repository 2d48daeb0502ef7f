/**
 * The controller builder, as controller-runtime's: `for(type)` names the root
 * kind (its events enqueue the object itself), `owns(type)` enqueues the
 * controlling owner of a child (ownerReference with `controller: true` of the
 * root kind), `watches(type, map)` enqueues what `map` returns for an object.
 * Each source may carry predicates and a scope (which shared informer feeds it).
 * `watchesRaw(source)` is a source that is no informer (controller-runtime's
 * `source.Func`): a loop of the caller's, run with the controller, that adds
 * requests to its queue (the garbage collector's monitors, keyed by uid).
 */
import type { KubeObject } from "../api/index.js";
import type { Cache } from "./cache.js";
import type { CacheEntry, Scope } from "./cache-entry.js";
import type { InformerHandlers } from "./informer.js";
import { type ObjectEvent, type Predicate, passes } from "./predicates.js";
import {
  ReconcileLoop,
  type ReconcileLoopOptions,
  type TypedReconciler,
} from "./reconcile-loop.js";
import {
  groupOf,
  type Request,
  requestFromKey,
  requestKey,
  requestOf,
  type TypeRef,
} from "./refs.js";

export interface SourceOptions {
  predicates?: Predicate[];
  scope?: Scope;
}

export type MapFunc = (obj: KubeObject) => Request[];

/** Where an event handler puts requests. */
export interface RequestQueue {
  add(req: Request): void;
}

/**
 * controller-runtime's `handler.Funcs`: for a source whose requests depend on
 * the old and the new object together, or on the cache (an update that frees
 * room enqueues every pending pod).
 */
export interface EventHandler {
  create?(obj: KubeObject, queue: RequestQueue): void;
  update?(old: KubeObject, obj: KubeObject, queue: RequestQueue): void;
  delete?(obj: KubeObject, queue: RequestQueue): void;
}

/**
 * A source that is no shared informer: runs while the controller does (after
 * its informer sources have synced), adding requests to `queue`, until
 * `signal` aborts.
 */
export type RawSource = (queue: RequestQueue, signal: AbortSignal) => Promise<void>;

/** A source's events as requests; `ownerNamespaced` is known once the Manager has resolved the root kind. */
type Mapper = (obj: KubeObject, ownerNamespaced: boolean) => Request[];

interface Source {
  type: TypeRef;
  opts: SourceOptions;
  map?: Mapper;
  handler?: EventHandler;
}

/** What a built controller needs from its Manager. */
export interface BuilderHost {
  readonly cache: Cache;
  readonly defaults: Omit<ReconcileLoopOptions, "name">;
  register(controller: BuiltController): void;
}

export interface BuiltController {
  readonly name: string;
  readonly forType: TypeRef | undefined;
  readonly loop: ReconcileLoop;
  /** Sources that are no informer, run with the loop. */
  readonly rawSources: readonly RawSource[];
  /** Connects the sources to the shared informers; returns those informers. */
  attach(ownerNamespaced: boolean): CacheEntry[];
}

export class ControllerBuilder {
  private forType: TypeRef | undefined;
  private readonly sources: Source[] = [];
  private readonly rawSources: RawSource[] = [];
  private readonly options: Partial<Omit<ReconcileLoopOptions, "name">> = {};

  constructor(
    private readonly host: BuilderHost,
    private readonly name: string,
  ) {}

  for(type: TypeRef, opts: SourceOptions = {}): this {
    if (this.forType) throw new Error(`controller ${this.name}: for() was called twice`);
    this.forType = type;
    this.sources.push({ type, opts, map: (obj) => [requestOf(obj)] });
    return this;
  }

  owns(type: TypeRef, opts: SourceOptions = {}): this {
    this.sources.push({ type, opts, map: (obj, namespaced) => this.controllerOf(obj, namespaced) });
    return this;
  }

  watches(type: TypeRef, map: MapFunc, opts: SourceOptions = {}): this {
    this.sources.push({ type, opts, map: (obj) => map(obj) });
    return this;
  }

  /** A source whose events `handler` turns into requests. */
  watchesWith(type: TypeRef, handler: EventHandler, opts: SourceOptions = {}): this {
    this.sources.push({ type, opts, handler });
    return this;
  }

  /** A source that is no informer; see `RawSource`. */
  watchesRaw(source: RawSource): this {
    this.rawSources.push(source);
    return this;
  }

  /** Told about each failed reconcile of this controller (default: the Manager's). */
  onError(fn: ReconcileLoopOptions["onError"]): this {
    this.options.onError = fn;
    return this;
  }

  workers(n: number): this {
    this.options.workers = n;
    return this;
  }

  /** The longest one reconcile may run before its signal aborts, ms. */
  deadline(ms: number): this {
    this.options.deadlineMs = ms;
    return this;
  }

  complete(reconciler: TypedReconciler): BuiltController {
    if (this.sources.length === 0 && this.rawSources.length === 0) {
      throw new Error(
        `controller ${this.name}: nothing to watch; call for(), watches() or watchesRaw()`,
      );
    }
    const loop = new ReconcileLoop(reconciler, {
      ...this.host.defaults,
      ...this.options,
      name: this.name,
    });
    const { cache } = this.host;
    const sources = this.sources;
    const built: BuiltController = {
      name: this.name,
      forType: this.forType,
      loop,
      rawSources: [...this.rawSources],
      attach(ownerNamespaced) {
        return sources.map((s) => {
          const entry = cache.informer(s.type, s.opts.scope);
          entry.addHandlers(handlersOf(s, loop, ownerNamespaced));
          return entry;
        });
      },
    };
    this.host.register(built);
    return built;
  }

  private controllerOf(obj: KubeObject, ownerNamespaced: boolean): Request[] {
    const root = this.forType;
    if (!root) throw new Error(`controller ${this.name}: owns() needs for()`);
    const ref = obj.metadata.ownerReferences?.find((r) => r.controller === true);
    if (!ref || ref.kind !== root.kind || groupOf(ref.apiVersion) !== groupOf(root.apiVersion)) {
      return [];
    }
    const namespace = ownerNamespaced ? obj.metadata.namespace : undefined;
    return [namespace ? { namespace, name: ref.name } : { name: ref.name }];
  }
}

function handlersOf(s: Source, loop: ReconcileLoop, ownerNamespaced: boolean): InformerHandlers {
  const predicates = s.opts.predicates ?? [];
  const { handler, map } = s;
  if (handler) {
    const queue: RequestQueue = { add: (req) => loop.enqueue(req) };
    return {
      onAdd: (obj) => passes(predicates, { type: "create", obj }) && handler.create?.(obj, queue),
      onUpdate: (old, obj) =>
        passes(predicates, { type: "update", old, obj }) && handler.update?.(old, obj, queue),
      onDelete: (obj) =>
        passes(predicates, { type: "delete", obj }) && handler.delete?.(obj, queue),
    };
  }
  const enqueue = (ev: ObjectEvent, ...objs: KubeObject[]) => {
    if (!map || !passes(predicates, ev)) return;
    // One request once per event: the queue hands a first add straight to an idle
    // worker, so a second add of it would count as a change during processing.
    const keys = new Set<string>();
    for (const obj of objs) for (const req of map(obj, ownerNamespaced)) keys.add(requestKey(req));
    for (const key of keys) loop.enqueue(requestFromKey(key));
  };
  return {
    onAdd: (obj) => enqueue({ type: "create", obj }, obj),
    // As controller-runtime's handlers: an update maps the old object and the new one.
    onUpdate: (old, obj) => enqueue({ type: "update", old, obj }, old, obj),
    onDelete: (obj) => enqueue({ type: "delete", obj }, obj),
  };
}
