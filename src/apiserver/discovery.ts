/**
 * Discovery documents derived from the resource registry: legacy `/api`, `/apis`,
 * `/api/v1`, `/apis/<g>`, `/apis/<g>/<v>` and aggregated discovery v2
 * (`apidiscovery.k8s.io/v2`), which kubectl asks for first and recognises by the
 * response Content-Type.
 */
import type { IncomingMessage } from "node:http";
import type { ResourceRegistry } from "./resources/registry.js";
import type { ResourceType } from "./resources/resource-type.js";

export const AGGREGATED_V2_CONTENT_TYPE =
  "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

export function wantsAggregated(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? "";
  for (const part of accept.split(",")) {
    const params = part.split(";").map((s) => s.trim());
    if (
      params.includes("g=apidiscovery.k8s.io") &&
      params.includes("v=v2") &&
      params.includes("as=APIGroupDiscoveryList")
    )
      return true;
    if (params[0] === "application/json" && params.length === 1) return false;
  }
  return false;
}

/** Subresources that answer with a kind of their own. */
const SUBRESOURCE_KINDS: Record<string, { group: string; version: string; kind: string }> = {
  scale: { group: "autoscaling", version: "v1", kind: "Scale" },
  token: { group: "authentication.k8s.io", version: "v1", kind: "TokenRequest" },
  binding: { group: "", version: "v1", kind: "Binding" },
  eviction: { group: "policy", version: "v1", kind: "Eviction" },
};

/** Verbs of the custom subresources, as kube-apiserver lists them. */
const CUSTOM_SUBRESOURCE_VERBS: Record<string, string[]> = {
  token: ["create"],
  binding: ["create"],
  eviction: ["create"],
  log: ["get"],
  exec: ["create", "get"],
  attach: ["create", "get"],
  portforward: ["create", "get"],
  proxy: ["create", "delete", "get", "patch", "update"],
  finalize: ["update"],
};

function subresourceVerbs(t: ResourceType): { name: string; verbs: string[] }[] {
  const out: { name: string; verbs: string[] }[] = [];
  if (t.status) out.push({ name: "status", verbs: ["get", "patch", "update"] });
  if (t.scale) out.push({ name: "scale", verbs: ["get", "patch", "update"] });
  for (const name of Object.keys(t.subresourceHandlers ?? {})) {
    if (name === "scale") continue;
    out.push({ name, verbs: CUSTOM_SUBRESOURCE_VERBS[name] ?? ["get", "update"] });
  }
  return out;
}

function apiResource(t: ResourceType): Record<string, unknown> {
  return {
    name: t.plural,
    singularName: t.singular,
    namespaced: t.namespaced,
    kind: t.kind,
    verbs: t.verbs,
    ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
    ...(t.categories.length ? { categories: t.categories } : {}),
    storageVersionHash: "",
  };
}

export function resourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const types = registry.all().filter((t) => t.group === group && t.version === version);
  if (types.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const t of types) {
    resources.push(apiResource(t));
    for (const sub of subresourceVerbs(t)) {
      const kind = SUBRESOURCE_KINDS[sub.name];
      // A kind of another group is named with it (kubectl drain finds policy/v1 Eviction so).
      const foreign =
        kind && kind.group !== t.group ? { group: kind.group, version: kind.version } : {};
      resources.push({
        name: `${t.plural}/${sub.name}`,
        singularName: "",
        namespaced: t.namespaced,
        ...foreign,
        kind: kind?.kind ?? t.kind,
        verbs: sub.verbs,
      });
    }
  }
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}

export function coreVersions(): Record<string, unknown> {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: "" }],
  };
}

function apiGroup(group: string, versions: string[]): Record<string, unknown> {
  const gvs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: gvs, preferredVersion: gvs[0] };
}

export function groupList(registry: ResourceRegistry): Record<string, unknown> {
  const groups = [...registry.groupVersions()]
    .filter(([g]) => g !== "")
    .map(([g, vs]) => apiGroup(g, vs));
  return { kind: "APIGroupList", apiVersion: "v1", groups };
}

export function groupDocument(
  registry: ResourceRegistry,
  group: string,
): Record<string, unknown> | undefined {
  const versions = registry.groupVersions().get(group);
  if (!versions || group === "") return undefined;
  return { kind: "APIGroup", apiVersion: "v1", ...apiGroup(group, versions) };
}

function discoveryResource(t: ResourceType): Record<string, unknown> {
  const responseKind = { group: t.group, version: t.version, kind: t.kind };
  return {
    resource: t.plural,
    responseKind,
    scope: t.namespaced ? "Namespaced" : "Cluster",
    singularResource: t.singular,
    verbs: t.verbs,
    ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
    ...(t.categories.length ? { categories: t.categories } : {}),
    ...(subresourceVerbs(t).length
      ? {
          subresources: subresourceVerbs(t).map((s) => ({
            subresource: s.name,
            responseKind: SUBRESOURCE_KINDS[s.name] ?? responseKind,
            verbs: s.verbs,
          })),
        }
      : {}),
  };
}

/** Aggregated discovery for `/api` (core only) or `/apis` (every other group). */
export function aggregated(registry: ResourceRegistry, core: boolean): Record<string, unknown> {
  const items: Record<string, unknown>[] = [];
  for (const [group, versions] of registry.groupVersions()) {
    if ((group === "") !== core) continue;
    items.push({
      metadata: { name: group, creationTimestamp: null },
      versions: versions.map((version) => ({
        version,
        freshness: "Current",
        resources: registry
          .all()
          .filter((t) => t.group === group && t.version === version)
          .map(discoveryResource),
      })),
    });
  }
  return {
    kind: "APIGroupDiscoveryList",
    apiVersion: "apidiscovery.k8s.io/v2",
    metadata: {},
    items,
  };
}

export const VERSION_INFO = {
  major: "1",
  minor: "32",
  gitVersion: "v1.32.0-hearth",
  gitCommit: "hearth",
  gitTreeState: "clean",
  buildDate: "2026-11-30T00:00:00Z",
  goVersion: "node",
  compiler: "tsc",
  platform: `${process.platform}/${process.arch === "x64" ? "amd64" : process.arch}`,
};
