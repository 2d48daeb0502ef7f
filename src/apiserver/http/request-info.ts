/**
 * Parses a request path into kube-apiserver's RequestInfo: API prefix, group,
 * version, namespace, resource, name, subresource and verb. The path comes
 * decoded once (`decodePath`); a path with an empty segment is not a resource
 * path, so `//` can never shift a name into the place of a resource.
 */
import { parseFieldRequirements, pathSegmentName } from "../../api/index.js";
import type { DecodedPath } from "./request-target.js";

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  verb: string;
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
}

const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

const VERBS_BY_METHOD: Record<string, string> = {
  POST: "create",
  PUT: "update",
  PATCH: "patch",
  DELETE: "delete",
  GET: "get",
  HEAD: "get",
};

/** Undefined for non-resource paths such as `/api`, `/apis/g`, `/apis/g/v`, `/version`. */
export function parseRequestInfo(
  method: string,
  decoded: DecodedPath,
  query: URLSearchParams,
): RequestInfo | undefined {
  const { path, segments: parts } = decoded;
  if (parts.includes("")) return undefined;
  let at: number;
  let group: string;
  let version: string;
  if (parts[0] === "api" && parts.length >= 3) {
    group = "";
    version = parts[1]!;
    at = 2;
  } else if (parts[0] === "apis" && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    at = 3;
  } else {
    return undefined;
  }
  let namespace: string | undefined;
  // `/namespaces/<ns>/<resource>…` scopes a resource; `/namespaces/<ns>/status|finalize` is the namespace's own subresource.
  if (
    parts[at] === "namespaces" &&
    parts.length - at >= 3 &&
    !NAMESPACE_SUBRESOURCES.has(parts[at + 2]!)
  ) {
    namespace = parts[at + 1];
    at += 2;
  }
  const resource = parts[at];
  // `…/<name>/proxy/<path>`: kube's RequestInfo takes the parts after the subresource as the
  // proxied path (nodes/proxy); any other resource path has at most three parts.
  const proxied = parts[at + 2] === "proxy" && parts.length - at > 3;
  if (!resource || (parts.length - at > 3 && !proxied)) return undefined;
  const name = parts[at + 1];
  const subresource = parts[at + 2];
  // kube-apiserver: a Namespace object is "in" itself, so a RoleBinding there can grant access to it.
  if (resource === "namespaces" && namespace === undefined && name !== undefined) namespace = name;
  let verb = VERBS_BY_METHOD[method] ?? method.toLowerCase();
  // As kube: only a GET of a collection can be a watch (a named GET ignores `watch`), and
  // `watch` is a query boolean: anything but "0" or "false" (any case), even "", is true.
  let selected: string | undefined;
  if ((method === "GET" || method === "HEAD") && name === undefined) {
    verb = queryFlag(query, "watch") ? "watch" : "list";
    selected = selectedName(query);
  }
  if (method === "DELETE" && name === undefined) verb = "deletecollection";
  // Absent parts are left out (not set to undefined); keys in the order kube's struct has them.
  const info: RequestInfo =
    namespace === undefined
      ? { isResourceRequest: true, path, verb, group, version, resource }
      : { isResourceRequest: true, path, verb, group, version, namespace, resource };
  if (name !== undefined) info.name = name;
  else if (selected !== undefined) info.name = selected;
  if (subresource !== undefined) info.subresource = subresource;
  return info;
}

/**
 * The name a list or watch selects with `metadata.name=<name>` (or `==`) among
 * its field selector's terms, when it is a valid path segment: kube's
 * RequestInfoFactory makes it the request's name, so that RBAC `resourceNames`
 * can allow `kubectl get <kind> <name> --watch`. A selector that does not
 * parse names nothing (its handler refuses it).
 */
function selectedName(query: URLSearchParams): string | undefined {
  const text = query.get("fieldSelector");
  if (!text) return undefined;
  let value: string | undefined;
  try {
    value = parseFieldRequirements(text).find(
      (r) => r.field === "metadata.name" && r.op === "=",
    )?.value;
  } catch {
    return undefined;
  }
  return value !== undefined && pathSegmentName(value).length === 0 ? value : undefined;
}

/**
 * A boolean query parameter as kube's `Convert_Slice_string_To_bool` reads it:
 * absent, "0" and "false" (any case) are false; any other value, "" included, is true.
 */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  const v = query.get(name);
  return v !== null && v !== "0" && v.toLowerCase() !== "false";
}
