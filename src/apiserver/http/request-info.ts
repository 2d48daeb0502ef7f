/**
 * Parses a request path into kube-apiserver's RequestInfo: API prefix, group,
 * version, namespace, resource, name, subresource and verb.
 */

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
  path: string,
  query: URLSearchParams,
): RequestInfo | undefined {
  const parts = pathSegments(path);
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
  if (!resource || parts.length - at > 3) return undefined;
  const name = parts[at + 1];
  const subresource = parts[at + 2];
  // kube-apiserver: a Namespace object is "in" itself, so a RoleBinding there can grant access to it.
  if (resource === "namespaces" && namespace === undefined && name !== undefined) namespace = name;
  let verb = VERBS_BY_METHOD[method] ?? method.toLowerCase();
  if (method === "GET" || method === "HEAD") {
    const watch = query.get("watch");
    if (watch === "true" || watch === "1") verb = "watch";
    else if (name === undefined) verb = "list";
  }
  if (method === "DELETE" && name === undefined) verb = "deletecollection";
  // Absent parts are left out (not set to undefined); keys in the order kube's struct has them.
  const info: RequestInfo =
    namespace === undefined
      ? { isResourceRequest: true, path, verb, group, version, resource }
      : { isResourceRequest: true, path, verb, group, version, namespace, resource };
  if (name !== undefined) info.name = name;
  if (subresource !== undefined) info.subresource = subresource;
  return info;
}

/** The non-empty segments of `path`, percent-decoded (a malformed escape throws URIError). */
function pathSegments(path: string): string[] {
  const parts = path.split("/");
  let n = 0;
  for (const p of parts) {
    if (p === "") continue;
    parts[n++] = p.includes("%") ? decodeURIComponent(p) : p;
  }
  parts.length = n;
  return parts;
}
