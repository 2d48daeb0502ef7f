/**
 * Impersonation headers (`Impersonate-User`, `Impersonate-Group`,
 * `Impersonate-Uid`, `Impersonate-Extra-<key>`), as kube-apiserver's filter:
 * each requested identity part must be allowed to the real user by the verb
 * `impersonate` on users, serviceaccounts (a `system:serviceaccount:` user),
 * groups, uids or userextras/<key>; the request then runs as the new user.
 * A ServiceAccount impersonated without groups gets its fixed groups; every
 * impersonated user gets `system:authenticated` unless the groups name it or
 * `system:unauthenticated`.
 */
import type { IncomingHttpHeaders } from "node:http";
import { ApiError, InternalError } from "../../api/index.js";
import { forbiddenMessage } from "./forbidden.js";
import { serviceAccountGroups, splitServiceAccountUsername } from "./service-account-tokens.js";
import {
  AUTHENTICATED_GROUP,
  type AuthorizationAttributes,
  type Authorizer,
  type UserInfo,
} from "./types.js";

const HEADER_PREFIX = "impersonate-";
const EXTRA_PREFIX = "impersonate-extra-";

/** Request headers with repeated ones kept apart (Node's `headersDistinct`). */
export type DistinctHeaders = Record<string, string[] | undefined>;

interface Request {
  resource: string;
  apiGroup: string;
  namespace: string;
  name: string;
  subresource: string;
}

/**
 * Whether any header (names lower-cased, as Node gives them) starts `impersonate-`:
 * without one, `impersonate` returns the authenticated user as it is, so the
 * caller need not build the distinct-headers object it reads.
 */
export function requestsImpersonation(headers: IncomingHttpHeaders): boolean {
  for (const name in headers) if (name.startsWith(HEADER_PREFIX)) return true;
  return false;
}

/**
 * The extra key a header name carries: lower-cased, then percent-decoded, as
 * kube's `unescapeExtraKey`. A key that does not decode (`%zz`, or bytes that are
 * not UTF-8, which a JS string cannot hold as Go's can) is kept as it was sent,
 * as kube keeps a malformed one: "always record extra strings".
 */
export function extraKey(encoded: string): string {
  const lower = encoded.toLowerCase();
  if (!lower.includes("%")) return lower;
  try {
    return decodeURIComponent(lower);
  } catch {
    return lower;
  }
}

/** The user a request runs as: the authenticated one, or the one it impersonates. */
export async function impersonate(
  authorizer: Authorizer,
  user: UserInfo,
  headers: DistinctHeaders,
): Promise<UserInfo> {
  const asUser = headers["impersonate-user"]?.[0] ?? "";
  const groups = headers["impersonate-group"] ?? [];
  const uid = headers["impersonate-uid"]?.[0] ?? "";
  const extra: Record<string, string[]> = {};
  for (const [name, v] of Object.entries(headers)) {
    if (!name.startsWith(EXTRA_PREFIX) || v === undefined) continue;
    const key = extraKey(name.slice(EXTRA_PREFIX.length));
    extra[key] = [...(extra[key] ?? []), ...v];
  }
  if (asUser === "") {
    if (groups.length > 0 || uid !== "" || Object.keys(extra).length > 0)
      throw new InternalError(
        "requested impersonation of groups, extra or uid without impersonating a user",
      );
    return user;
  }
  const requests: Request[] = [];
  const sa = splitServiceAccountUsername(asUser);
  if (sa)
    requests.push({
      resource: "serviceaccounts",
      apiGroup: "",
      namespace: sa.namespace,
      name: sa.name,
      subresource: "",
    });
  else
    requests.push({
      resource: "users",
      apiGroup: "",
      namespace: "",
      name: asUser,
      subresource: "",
    });
  for (const g of groups)
    requests.push({ resource: "groups", apiGroup: "", namespace: "", name: g, subresource: "" });
  for (const [key, vs] of Object.entries(extra))
    for (const v of vs)
      requests.push({
        resource: "userextras",
        apiGroup: "authentication.k8s.io",
        namespace: "",
        name: v,
        subresource: key,
      });
  if (uid !== "")
    requests.push({
      resource: "uids",
      apiGroup: "authentication.k8s.io",
      namespace: "",
      name: uid,
      subresource: "",
    });

  for (const r of requests) {
    const attrs: AuthorizationAttributes = {
      user,
      verb: "impersonate",
      isResourceRequest: true,
      path: "",
      apiVersion: "",
      ...r,
    };
    const decision = await authorizer.authorize(attrs);
    if (!decision.allowed)
      throw new ApiError(403, "Forbidden", forbiddenMessage(attrs, decision.reason), {
        name: r.name,
        group: r.apiGroup,
        kind: r.resource,
      });
  }
  const finalGroups = sa && groups.length === 0 ? serviceAccountGroups(sa.namespace) : [...groups];
  if (!finalGroups.includes(AUTHENTICATED_GROUP) && !finalGroups.includes("system:unauthenticated"))
    finalGroups.push(AUTHENTICATED_GROUP);
  return {
    username: asUser,
    groups: finalGroups,
    ...(uid !== "" ? { uid } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}
