/**
 * The one client interface every component uses to reach the API, split by
 * capability as in controller-runtime: Reader, Writer, StatusWriter, Watcher.
 * A cache is a Reader; a reconciler that only reads asks for a Reader. The HTTP
 * implementation lives in `http-client.ts`; an in-process one can implement the
 * same interface.
 */
import {
  isObject,
  type KubeList,
  type KubeObject,
  type Status,
  type WatchEvent,
} from "../api/index.js";

/** A kind: what `list`, `watch` and `deleteCollection` address. */
export interface TypeRef {
  apiVersion: string;
  kind: string;
}

/** One object of a kind; `namespace` is omitted for a cluster-scoped kind. */
export interface ObjectRef extends TypeRef {
  name: string;
  namespace?: string | undefined;
}

/** @deprecated the old name of `TypeRef`. */
export type ResourceId = TypeRef;

/** Options every call takes: aborting `signal` ends the call with an AbortError. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** How a kind is reached over REST: its plural resource name and its scope. */
export interface ResourceMapping {
  plural: string;
  namespaced: boolean;
}

/**
 * Maps apiVersion + kind to a REST resource. Throws a 404 ApiError
 * (`no matches for kind "X" in version "g/v"`) when the server does not serve it.
 */
export interface ResourceMapper {
  resolve(apiVersion: string, kind: string): Promise<ResourceMapping>;
}

export interface SelectorOptions {
  labelSelector?: string;
  fieldSelector?: string;
}

export interface ListOptions extends SelectorOptions {
  /** Omitted: all namespaces (or a cluster-scoped kind). */
  namespace?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: "NotOlderThan" | "Exact";
}

export interface Reader {
  /** Throws a 404 ApiError (reason NotFound) when the object does not exist. */
  get<T extends KubeObject = KubeObject>(ref: ObjectRef, opts?: CallOptions): Promise<T>;
  list<T extends KubeObject = KubeObject>(
    type: TypeRef,
    opts?: ListOptions & CallOptions,
  ): Promise<KubeList<T>>;
}

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: boolean;
}

export type PatchType = "merge" | "json" | "strategic" | "apply";

export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean;
}

export interface ApplyOptions {
  fieldManager: string;
  force?: boolean;
  dryRun?: boolean;
}

export interface DeleteOptions {
  propagationPolicy?: "Orphan" | "Background" | "Foreground";
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  dryRun?: boolean;
}

export interface DeleteCollectionOptions extends DeleteOptions, SelectorOptions {
  namespace?: string;
}

/** A patch call's options: the patch type is required, the rest as for any write. */
export type PatchCallOptions = PatchOptions & { type: PatchType } & CallOptions;

export interface Writer {
  create<T extends KubeObject>(obj: T, opts?: WriteOptions & CallOptions): Promise<T>;
  /** PUT; the object's `metadata.resourceVersion` guards against lost updates (409). */
  update<T extends KubeObject>(obj: T, opts?: WriteOptions & CallOptions): Promise<T>;
  /** `patch` is sent as JSON unless it is a string, which is sent as is. */
  patch<T extends KubeObject = KubeObject>(
    ref: ObjectRef,
    patch: unknown,
    opts: PatchCallOptions,
  ): Promise<T>;
  /** Server-side apply of a full intent; creates the object if absent. */
  apply<T extends KubeObject>(obj: KubeObject, opts: ApplyOptions & CallOptions): Promise<T>;
  /**
   * Resolves to a Status when the object was removed at once, or to the object
   * (with `deletionTimestamp`) when finalizers keep it; see `isStatus`.
   */
  delete(ref: ObjectRef, opts?: DeleteOptions & CallOptions): Promise<KubeObject | Status>;
  deleteCollection(
    type: TypeRef,
    opts?: DeleteCollectionOptions & CallOptions,
  ): Promise<KubeList | Status>;
}

/** Writes to the `/status` subresource, which ignores changes outside `status`. */
export interface StatusWriter {
  updateStatus<T extends KubeObject>(obj: T, opts?: WriteOptions & CallOptions): Promise<T>;
  patchStatus<T extends KubeObject = KubeObject>(
    ref: ObjectRef,
    patch: unknown,
    opts: PatchCallOptions,
  ): Promise<T>;
}

export interface WatchOptions extends SelectorOptions {
  namespace?: string;
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
}

export interface Watcher {
  /**
   * Yields events until the server ends the stream or `opts.signal` aborts (then
   * the iteration just ends). An `ERROR` event is thrown as the ApiError rebuilt
   * from its Status, e.g. code 410 Expired, on which an informer relists.
   */
  watch<T extends KubeObject = KubeObject>(
    type: TypeRef,
    opts: WatchOptions & CallOptions,
  ): AsyncIterable<WatchEvent<T>>;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Client = Reader &
  Writer &
  StatusWriter &
  Watcher & {
    readonly mapper: ResourceMapper;
    /**
     * Escape hatch for tests and odd endpoints (logs, discovery). `path` includes
     * any query string. Never throws on a non-2xx status: the caller reads it.
     */
    request(
      method: string,
      path: string,
      body?: string,
      headers?: Record<string, string>,
      opts?: CallOptions,
    ): Promise<RawResponse>;
  };

/** True when a value received from the API is a `Status` rather than an object. */
export function isStatus(value: unknown): value is Status {
  return isObject(value) && value.kind === "Status" && value.apiVersion === "v1";
}
