/**
 * What the doctor reads from the API, through the client only: every served
 * resource that supports `list` (discovery of every group's preferred version,
 * CRDs included), and every object of each, cluster-wide or in one namespace.
 * A resource that cannot be listed is reported, not fatal: the rest still counts.
 */
import { ApiError, type KubeObject } from "../../api/index.js";
import { type Client, errorText } from "../../client/index.js";
import { type DiscoveredResource, discoverResources } from "../../runtime/index.js";

export interface Listed {
  object: KubeObject;
  /** `configmaps`, `datastores.kamaji.clastix.io`. */
  resource: string;
}

export interface Collected {
  objects: Listed[];
  /** One line per resource that could not be listed. */
  unlisted: string[];
}

export function resourceName(r: Pick<DiscoveredResource, "group" | "plural">): string {
  return r.group === "" ? r.plural : `${r.plural}.${r.group}`;
}

/** Lists every listable resource; with `namespace`, namespaced ones there plus the cluster-scoped. */
export async function collect(
  client: Client,
  opts: { namespace?: string; signal?: AbortSignal } = {},
): Promise<Collected> {
  const resources = (await discoverResources(client)).filter((r) => r.verbs.includes("list"));
  const unlisted: string[] = [];
  const lists = await Promise.all(
    resources.map(async (r) => {
      try {
        const list = await client.list(
          { apiVersion: r.apiVersion, kind: r.kind },
          r.namespaced && opts.namespace !== undefined
            ? { namespace: opts.namespace, ...(opts.signal ? { signal: opts.signal } : {}) }
            : opts.signal
              ? { signal: opts.signal }
              : {},
        );
        const resource = resourceName(r);
        // List items may come without apiVersion and kind, as kube-apiserver sends them.
        return list.items.map((o) => ({
          object: { ...o, apiVersion: o.apiVersion ?? r.apiVersion, kind: o.kind ?? r.kind },
          resource,
        }));
      } catch (e) {
        if (e instanceof ApiError && e.code === 405) return [];
        unlisted.push(`${resourceName(r)}: ${errorText(e)}`);
        return [];
      }
    }),
  );
  return { objects: lists.flat(), unlisted: unlisted.sort() };
}
