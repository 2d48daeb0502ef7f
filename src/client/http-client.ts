/**
 * The Client over HTTP(S): resolves kinds through discovery, builds REST paths,
 * sends JSON and maps every non-2xx reply to an ApiError. Create one per process
 * (it pools connections) and `close()` it when done.
 */

import type { IncomingMessage } from "node:http";
import type { KubeList, KubeObject, Status, WatchEvent } from "../api/index.js";
import { BadRequestError } from "../api/index.js";
import { DiscoveryMapper } from "./discovery-mapper.js";
import type {
  ApplyOptions,
  CallOptions,
  Client,
  DeleteCollectionOptions,
  DeleteOptions,
  ListOptions,
  ObjectRef,
  PatchCallOptions,
  RawResponse,
  TypeRef,
  WatchOptions,
  WriteOptions,
} from "./interface.js";
import { loadKubeconfig } from "./kubeconfig.js";
import { queryString, resourcePath } from "./paths.js";
import { deleteBody, PATCH_CONTENT_TYPES, writeQuery } from "./request-options.js";
import { decodeResponse, errorFromResponse } from "./response.js";
import { type ClientConfig, readAll, Transport } from "./transport.js";
import { decodeWatchEvents } from "./watch-stream.js";

/** Where one request goes: the kind's resource, an optional object and subresource. */
interface Target {
  apiVersion: string;
  kind: string;
  namespace?: string | undefined;
  name?: string | undefined;
  subresource?: string;
  /** The request goes to the collection although it names an object (a create). */
  collection?: boolean;
}

export class HttpClient implements Client {
  readonly mapper: DiscoveryMapper;
  readonly #transport: Transport;

  constructor(config: ClientConfig) {
    this.#transport = new Transport(config);
    this.mapper = new DiscoveryMapper((method, path) => this.#transport.send(method, path));
  }

  request(
    method: string,
    path: string,
    body?: string,
    headers?: Record<string, string>,
    opts: CallOptions = {},
  ): Promise<RawResponse> {
    return this.#transport.send(method, path, body, headers, opts.signal);
  }

  /** Destroys pooled and in-use sockets; requests and watches in flight fail or end. */
  close(): void {
    this.#transport.close();
  }

  get<T extends KubeObject = KubeObject>(ref: ObjectRef, opts: CallOptions = {}): Promise<T> {
    return this.#call("GET", refTarget(ref), `cannot get ${describe(ref)}`, {
      signal: opts.signal,
    });
  }

  list<T extends KubeObject = KubeObject>(
    type: TypeRef,
    opts: ListOptions & CallOptions = {},
  ): Promise<KubeList<T>> {
    const { namespace, signal, ...query } = opts;
    const t = { ...typeOf(type), namespace };
    return this.#call("GET", t, `cannot list ${type.kind}`, { query, signal });
  }

  async create<T extends KubeObject>(obj: T, opts: WriteOptions & CallOptions = {}): Promise<T> {
    const t = { ...objectTarget(obj), collection: true };
    const call = { body: obj, query: writeQuery(opts), signal: opts.signal };
    return this.#call("POST", t, `cannot create ${describe(t)}`, call);
  }

  async update<T extends KubeObject>(obj: T, opts: WriteOptions & CallOptions = {}): Promise<T> {
    const t = namedTarget(obj, "update");
    const call = { body: obj, query: writeQuery(opts), signal: opts.signal };
    return this.#call("PUT", t, `cannot update ${describe(t)}`, call);
  }

  patch<T extends KubeObject = KubeObject>(
    ref: ObjectRef,
    patch: unknown,
    opts: PatchCallOptions,
  ): Promise<T> {
    return this.#patch(refTarget(ref), patch, opts);
  }

  async apply<T extends KubeObject>(obj: KubeObject, opts: ApplyOptions & CallOptions): Promise<T> {
    return this.#patch(namedTarget(obj, "apply"), obj, { ...opts, type: "apply" });
  }

  delete(ref: ObjectRef, opts: DeleteOptions & CallOptions = {}): Promise<KubeObject | Status> {
    const { signal, ...rest } = opts;
    const call = { body: deleteBody(rest), signal };
    return this.#call("DELETE", refTarget(ref), `cannot delete ${describe(ref)}`, call);
  }

  deleteCollection(
    type: TypeRef,
    opts: DeleteCollectionOptions & CallOptions = {},
  ): Promise<KubeList | Status> {
    const { namespace, labelSelector, fieldSelector, signal, ...rest } = opts;
    const t = { ...typeOf(type), namespace };
    const call = { body: deleteBody(rest), query: { labelSelector, fieldSelector }, signal };
    return this.#call("DELETE", t, `cannot delete ${type.kind} collection`, call);
  }

  async updateStatus<T extends KubeObject>(
    obj: T,
    opts: WriteOptions & CallOptions = {},
  ): Promise<T> {
    const t = { ...namedTarget(obj, "update status of"), subresource: "status" };
    const call = { body: obj, query: writeQuery(opts), signal: opts.signal };
    return this.#call("PUT", t, `cannot update status of ${describe(t)}`, call);
  }

  patchStatus<T extends KubeObject = KubeObject>(
    ref: ObjectRef,
    patch: unknown,
    opts: PatchCallOptions,
  ): Promise<T> {
    return this.#patch({ ...refTarget(ref), subresource: "status" }, patch, opts);
  }

  async *watch<T extends KubeObject = KubeObject>(
    type: TypeRef,
    opts: WatchOptions & CallOptions,
  ): AsyncGenerator<WatchEvent<T>> {
    const { namespace, signal, ...query } = opts;
    const t = { ...typeOf(type), namespace };
    if (signal?.aborted) return;
    const path = (await this.#path(t, false)) + queryString({ watch: true, ...query });
    let res: IncomingMessage;
    try {
      res = await this.#transport.open("GET", path, undefined, {}, signal);
    } catch (e) {
      if (signal?.aborted) return;
      throw e;
    }
    try {
      if (res.statusCode !== 200)
        throw errorFromResponse(await readAll(res), `cannot watch ${type.kind}`);
      for await (const ev of decodeWatchEvents<T>(res)) {
        // Events decoded from a chunk read before the abort are not delivered after it.
        if (signal?.aborted) return;
        yield ev;
      }
    } catch (e) {
      if (signal?.aborted) return;
      throw e;
    } finally {
      // Stopped early (consumer broke out, or an ERROR event): the socket cannot be reused.
      if (!res.complete) res.destroy();
    }
  }

  #patch<T>(t: Target, patch: unknown, opts: PatchCallOptions): Promise<T> {
    const { type, signal } = opts;
    const query = {
      ...writeQuery(opts),
      ...(type === "apply" && opts.force !== undefined ? { force: opts.force } : {}),
    };
    const headers = { "content-type": PATCH_CONTENT_TYPES[type] };
    const what = `cannot patch ${describe(t)}`;
    return this.#call("PATCH", t, what, { body: patch, query, headers, signal });
  }

  /** `needsNamespace`: the request is about one object (to create, read or write). */
  async #path(t: Target, needsNamespace: boolean): Promise<string> {
    const mapping = await this.mapper.resolve(t.apiVersion, t.kind);
    if (mapping.namespaced && needsNamespace && !t.namespace) {
      throw new BadRequestError(
        `cannot reach ${describe(t)}: a namespace is required for namespaced kind ${t.kind}`,
      );
    }
    return resourcePath({ ...t, mapping, name: t.collection ? undefined : t.name });
  }

  async #call<T>(method: string, t: Target, what: string, call: Call = {}): Promise<T> {
    const { body, query = {}, headers, signal } = call;
    signal?.throwIfAborted();
    const one = t.name !== undefined || t.collection === true;
    const path = (await this.#path(t, one)) + queryString(query);
    const text = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
    const res = await this.#transport.send(method, path, text, headers, signal);
    return decodeResponse<T>(res, what);
  }
}

/** What one request carries besides its target. */
interface Call {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

/** Only the kind's fields, so that a whole object passed as a TypeRef adds nothing else. */
function typeOf(type: TypeRef): TypeRef {
  return { apiVersion: type.apiVersion, kind: type.kind };
}

function refTarget(ref: ObjectRef): Target {
  return { ...typeOf(ref), name: ref.name, namespace: ref.namespace };
}

function objectTarget(obj: KubeObject): Target {
  const { apiVersion, kind, metadata } = obj;
  return { apiVersion, kind, name: metadata?.name, namespace: metadata?.namespace };
}

function namedTarget(obj: KubeObject, verb: string): Target {
  const t = objectTarget(obj);
  if (!t.name) throw new BadRequestError(`cannot ${verb} ${t.kind}: metadata.name is required`);
  return t;
}

/** `ConfigMap "default/x"`, for error messages. */
function describe(t: Target | ObjectRef): string {
  if (!t.name) return t.kind;
  return `${t.kind} "${t.namespace ? `${t.namespace}/` : ""}${t.name}"`;
}

export function createHttpClient(config: ClientConfig): HttpClient {
  return new HttpClient(config);
}

/** A client for the current (or the named) context of a kubeconfig file. */
export async function clientFromKubeconfig(path: string, context?: string): Promise<HttpClient> {
  return new HttpClient(await loadKubeconfig(path, context));
}
