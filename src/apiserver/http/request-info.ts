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
  const parts = path
    .split("/")
    .filter((p) => p !== "")
    .map(decodeURIComponent);
  let rest: string[];
  let group: string;
  let version: string;
  if (parts[0] === "api" && parts.length >= 3) {
    group = "";
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === "apis" && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let namespace: string | undefined;
  // `/namespaces/<ns>/<resource>…` scopes a resource; `/namespaces/<ns>/status|finalize` is the namespace's own subresource.
  if (rest[0] === "namespaces" && rest.length >= 3 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource, name, subresource, ...extra] = rest;
  if (!resource || extra.length > 0) return undefined;
  // kube-apiserver: a Namespace object is "in" itself, so a RoleBinding there can grant access to it.
  if (resource === "namespaces" && namespace === undefined && name !== undefined) namespace = name;
  let verb = VERBS_BY_METHOD[method] ?? method.toLowerCase();
  if (method === "GET" || method === "HEAD") {
    if (query.get("watch") === "true" || query.get("watch") === "1") verb = "watch";
    else if (name === undefined) verb = "list";
  }
  if (method === "DELETE" && name === undefined) verb = "deletecollection";
  return {
    isResourceRequest: true,
    path,
    verb,
    group,
    version,
    ...(namespace !== undefined ? { namespace } : {}),
    resource,
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  };
}
