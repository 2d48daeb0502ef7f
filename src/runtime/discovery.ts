/**
 * Resource discovery through the client: every served resource (not
 * subresource) of every group's preferred version, with its verbs. Used by
 * controllers that act on all kinds (namespace deletion, garbage collection).
 */
import type { Client } from "../client/index.js";

export interface DiscoveredResource {
  apiVersion: string;
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  verbs: string[];
}

interface ApiResourceList {
  groupVersion: string;
  resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[];
}

interface ApiGroupList {
  groups: {
    name: string;
    preferredVersion?: { groupVersion: string };
    versions: { groupVersion: string }[];
  }[];
}

async function getJson<T>(client: Pick<Client, "request">, path: string): Promise<T> {
  const res = await client.request("GET", path, undefined, { Accept: "application/json" });
  if (res.status !== 200)
    throw new Error(`discovery GET ${path} returned ${res.status}: ${res.body.slice(0, 200)}`);
  return JSON.parse(res.body) as T;
}

function resourcesOf(list: ApiResourceList): DiscoveredResource[] {
  const slash = list.groupVersion.indexOf("/");
  const group = slash < 0 ? "" : list.groupVersion.slice(0, slash);
  const version = slash < 0 ? list.groupVersion : list.groupVersion.slice(slash + 1);
  return list.resources
    .filter((r) => !r.name.includes("/"))
    .map((r) => ({
      apiVersion: list.groupVersion,
      group,
      version,
      kind: r.kind,
      plural: r.name,
      namespaced: r.namespaced,
      verbs: r.verbs,
    }));
}

export async function discoverResources(
  client: Pick<Client, "request">,
): Promise<DiscoveredResource[]> {
  const core = await getJson<ApiResourceList>(client, "/api/v1");
  const groups = await getJson<ApiGroupList>(client, "/apis");
  const lists = await Promise.all(
    groups.groups.map((g) =>
      getJson<ApiResourceList>(
        client,
        `/apis/${g.preferredVersion?.groupVersion ?? g.versions[0]!.groupVersion}`,
      ),
    ),
  );
  return [core, ...lists].flatMap(resourcesOf);
}
