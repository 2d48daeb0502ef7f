/**
 * A ResourceMapper over legacy discovery (`GET /api/v1`, `GET /apis/<g>/<v>` →
 * APIResourceList). Each group version is fetched once and cached; a kind missing
 * from the cache refetches its group version once, because a CRD may have just
 * been registered. Concurrent lookups share one request.
 */
import { ApiError, isObject } from "../api/index.js";
import type { RawResponse, ResourceMapper, ResourceMapping } from "./interface.js";
import { groupVersionPath } from "./paths.js";
import { decodeResponse } from "./response.js";

type KindTable = ReadonlyMap<string, ResourceMapping>;

export type Fetch = (method: string, path: string) => Promise<RawResponse>;

export class DiscoveryMapper implements ResourceMapper {
  readonly #fetch: Fetch;
  /** Settled or in-flight discovery per apiVersion; a failed fetch is not kept. */
  readonly #tables = new Map<string, Promise<KindTable>>();

  constructor(fetch: Fetch) {
    this.#fetch = fetch;
  }

  async resolve(apiVersion: string, kind: string): Promise<ResourceMapping> {
    const cached = this.#tables.get(apiVersion);
    if (cached) {
      const hit = (await cached.catch(() => undefined))?.get(kind);
      if (hit) return hit;
      // Another caller may have started the refetch while we waited.
      if (this.#tables.get(apiVersion) === cached) this.#tables.delete(apiVersion);
    }
    const found = (await this.#table(apiVersion)).get(kind);
    if (found) return found;
    throw noMatch(apiVersion, kind);
  }

  /** Forgets everything; the next lookups rediscover. */
  reset(): void {
    this.#tables.clear();
  }

  #table(apiVersion: string): Promise<KindTable> {
    let table = this.#tables.get(apiVersion);
    if (!table) {
      table = this.#discover(apiVersion);
      this.#tables.set(apiVersion, table);
      table.catch(() => {
        if (this.#tables.get(apiVersion) === table) this.#tables.delete(apiVersion);
      });
    }
    return table;
  }

  async #discover(apiVersion: string): Promise<KindTable> {
    const res = await this.#fetch("GET", groupVersionPath(apiVersion));
    // A group version the server does not serve has no kinds, and is cached as such.
    if (res.status === 404) return new Map();
    return kindTable(decodeResponse<unknown>(res, `cannot discover resources of ${apiVersion}`));
  }
}

/** kind → mapping from an APIResourceList, skipping subresources (`pods/status`). */
export function kindTable(list: unknown): KindTable {
  const table = new Map<string, ResourceMapping>();
  const resources = isObject(list) && Array.isArray(list.resources) ? list.resources : [];
  for (const r of resources) {
    if (!isObject(r) || typeof r.name !== "string" || typeof r.kind !== "string") continue;
    if (r.name.includes("/") || table.has(r.kind)) continue;
    table.set(r.kind, { plural: r.name, namespaced: r.namespaced === true });
  }
  return table;
}

function noMatch(apiVersion: string, kind: string): ApiError {
  return new ApiError(404, "NotFound", `no matches for kind "${kind}" in version "${apiVersion}"`, {
    kind,
  });
}
