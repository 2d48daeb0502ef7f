/**
 * The Client over HTTP(S): resolves kinds through discovery, builds REST paths,
 * sends JSON and maps every non-2xx reply to an ApiError. Create one per process
 * (it pools connections) and `close()` it when done.
 */

import type { IncomingMessage } from "node:http";
import { BadRequestError } from "../api/errors.js";
import type { KubeList, KubeObject, Status, WatchEvent } from "../api/types.js";
import { DiscoveryMapper } from "./discovery-mapper.js";
import type {
  ApplyOptions,
  Client,
  DeleteCollectionOptions,
  DeleteOptions,
  ListOptions,
  PatchOptions,
  PatchType,
  RawResponse,
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
  ): Promise<RawResponse> {
    return this.#transport.send(method, path, body, headers);
  }

  /** Destroys pooled and in-use sockets; requests and watches in flight fail or end. */
  close(): void {
    this.#transport.close();
  }

  get<T extends KubeObject = KubeObject>(
    apiVersion: string,
    kind: string,
    name: string,
    namespace?: string,
  ): Promise<T> {
    const t = { apiVersion, kind, name, namespace };
    return this.#call("GET", t, `cannot get ${describe(t)}`);
  }

  list<T extends KubeObject = KubeObject>(
    apiVersion: string,
    kind: string,
    opts: ListOptions = {},
  ): Promise<KubeList<T>> {
    const { namespace, ...query } = opts;
    return this.#call(
      "GET",
      { apiVersion, kind, namespace },
      `cannot list ${kind}`,
      undefined,
      query,
    );
  }

  async create<T extends KubeObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    const t = { ...objectTarget(obj), collection: true };
    return this.#call("POST", t, `cannot create ${describe(t)}`, obj, writeQuery(opts));
  }

  async update<T extends KubeObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    const t = namedTarget(obj, "update");
    return this.#call("PUT", t, `cannot update ${describe(t)}`, obj, writeQuery(opts));
  }

  patch<T extends KubeObject = KubeObject>(
    apiVersion: string,
    kind: string,
    name: string,
    namespace: string | undefined,
    patch: unknown,
    type: PatchType,
    opts: PatchOptions = {},
  ): Promise<T> {
    return this.#patch({ apiVersion, kind, name, namespace }, patch, type, opts);
  }

  async apply<T extends KubeObject>(obj: KubeObject, opts: ApplyOptions): Promise<T> {
    return this.#patch(namedTarget(obj, "apply"), obj, "apply", opts);
  }

  delete(
    apiVersion: string,
    kind: string,
    name: string,
    namespace?: string,
    opts: DeleteOptions = {},
  ): Promise<KubeObject | Status> {
    const t = { apiVersion, kind, name, namespace };
    return this.#call("DELETE", t, `cannot delete ${describe(t)}`, deleteBody(opts));
  }

  deleteCollection(
    apiVersion: string,
    kind: string,
    opts: DeleteCollectionOptions = {},
  ): Promise<KubeList | Status> {
    const { namespace, labelSelector, fieldSelector, ...rest } = opts;
    const t = { apiVersion, kind, namespace };
    const query = { labelSelector, fieldSelector };
    return this.#call("DELETE", t, `cannot delete ${kind} collection`, deleteBody(rest), query);
  }

  async updateStatus<T extends KubeObject>(obj: T, opts: WriteOptions = {}): Promise<T> {
    const t = { ...namedTarget(obj, "update status of"), subresource: "status" };
    return this.#call("PUT", t, `cannot update status of ${describe(t)}`, obj, writeQuery(opts));
  }

  patchStatus<T extends KubeObject = KubeObject>(
    apiVersion: string,
    kind: string,
    name: string,
    namespace: string | undefined,
    patch: unknown,
    type: PatchType,
    opts: PatchOptions = {},
  ): Promise<T> {
    const t = { apiVersion, kind, name, namespace, subresource: "status" };
    return this.#patch(t, patch, type, opts);
  }

  async *watch<T extends KubeObject = KubeObject>(
    apiVersion: string,
    kind: string,
    opts: WatchOptions,
    signal: AbortSignal,
  ): AsyncGenerator<WatchEvent<T>> {
    const { namespace, ...query } = opts;
    const t = { apiVersion, kind, namespace };
    if (signal.aborted) return;
    const path = (await this.#path(t, false)) + queryString({ watch: true, ...query });
    let res: IncomingMessage;
    try {
      res = await this.#transport.open("GET", path, undefined, {}, signal);
    } catch (e) {
      if (signal.aborted) return;
      throw e;
    }
    try {
      if (res.statusCode !== 200)
        throw errorFromResponse(await readAll(res), `cannot watch ${kind}`);
      yield* decodeWatchEvents<T>(res);
    } catch (e) {
      if (signal.aborted) return;
      throw e;
    } finally {
      // Stopped early (consumer broke out, or an ERROR event): the socket cannot be reused.
      if (!res.complete) res.destroy();
    }
  }

  #patch<T>(t: Target, patch: unknown, type: PatchType, opts: PatchOptions): Promise<T> {
    const query = {
      ...writeQuery(opts),
      ...(type === "apply" && opts.force !== undefined ? { force: opts.force } : {}),
    };
    const headers = { "content-type": PATCH_CONTENT_TYPES[type] };
    const what = `cannot patch ${describe(t)}`;
    return this.#call("PATCH", t, what, patch, query, headers);
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

  async #call<T>(
    method: string,
    t: Target,
    what: string,
    body?: unknown,
    query: Record<string, string | number | boolean | undefined> = {},
    headers?: Record<string, string>,
  ): Promise<T> {
    const one = t.name !== undefined || t.collection === true;
    const path = (await this.#path(t, one)) + queryString(query);
    const text = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
    const res = await this.#transport.send(method, path, text, headers);
    return decodeResponse<T>(res, what);
  }
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
function describe(t: Target): string {
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
