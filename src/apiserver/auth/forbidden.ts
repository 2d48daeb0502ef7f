/**
 * kube-apiserver's wording of an authorization refusal, e.g.
 * `configmaps "x" is forbidden: User "bob" cannot get resource "configmaps" in API group "" in the namespace "default"`.
 */
import type { AuthorizationAttributes } from "./types.js";

export function forbiddenMessage(a: AuthorizationAttributes, reason: string): string {
  const suffix = reason ? `: ${reason}` : "";
  if (!a.isResourceRequest)
    return `forbidden: User "${a.user.username}" cannot ${a.verb} path "${a.path}"${suffix}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  const scope = a.namespace ? ` in the namespace "${a.namespace}"` : " at the cluster scope";
  return `${subject} is forbidden: User "${a.user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}"${scope}${suffix}`;
}
