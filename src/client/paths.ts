/**
 * REST paths and query strings, following the Kubernetes URL layout:
 * `/api/v1/...` for the core group, `/apis/<group>/<version>/...` otherwise, and
 * `/namespaces/<ns>/<plural>[/<name>[/<subresource>]]` for namespaced kinds.
 */
import { parseApiVersion } from "../api/index.js";
import type { ResourceMapping } from "./interface.js";

/** The discovery path of a group version: `/api/v1` or `/apis/apps/v1`. */
export function groupVersionPath(apiVersion: string): string {
  const { group, version } = parseApiVersion(apiVersion);
  const v = encodeURIComponent(version);
  return group === "" ? `/api/${v}` : `/apis/${encodeURIComponent(group)}/${v}`;
}

export interface ResourcePathParts {
  apiVersion: string;
  mapping: ResourceMapping;
  /** Ignored for cluster-scoped kinds; omitted for a namespaced kind: all namespaces. */
  namespace?: string;
  name?: string;
  subresource?: string;
}

export function resourcePath(parts: ResourcePathParts): string {
  const { mapping, namespace, name, subresource } = parts;
  let path = groupVersionPath(parts.apiVersion);
  if (mapping.namespaced && namespace !== undefined && namespace !== "") {
    path += `/namespaces/${encodeURIComponent(namespace)}`;
  }
  path += `/${encodeURIComponent(mapping.plural)}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined) path += `/${encodeURIComponent(subresource)}`;
  return path;
}

export type QueryValue = string | number | boolean | undefined;

/**
 * `?a=1&b=x%20y`, skipping undefined values, in insertion order. Uses
 * percent-encoding (`%20`, not `+`) so any server's query parser reads it back.
 */
export function queryString(params: Record<string, QueryValue>): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return pairs.length === 0 ? "" : `?${pairs.join("&")}`;
}
