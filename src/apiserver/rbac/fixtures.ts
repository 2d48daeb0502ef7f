/** Test support: an in-memory PolicyReader built from plain objects. */
import type { PolicyReader } from "./policy-cache.js";
import type { ClusterRole, PolicyRule, Role, RoleBinding, Subject } from "./types.js";

export function staticPolicy(p: {
  roles?: Role[];
  clusterRoles?: ClusterRole[];
  roleBindings?: RoleBinding[];
  clusterRoleBindings?: RoleBinding[];
}): PolicyReader {
  return {
    getRole: (ns, name) =>
      p.roles?.find((r) => r.metadata.namespace === ns && r.metadata.name === name),
    getClusterRole: (name) => p.clusterRoles?.find((r) => r.metadata.name === name),
    roleBindings: (ns) => (p.roleBindings ?? []).filter((b) => b.metadata.namespace === ns),
    clusterRoleBindings: () => p.clusterRoleBindings ?? [],
    clusterRoles: () => p.clusterRoles ?? [],
  };
}

export function clusterRole(
  name: string,
  rules: PolicyRule[],
  labels?: Record<string, string>,
): ClusterRole {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name, ...(labels ? { labels } : {}) },
    rules,
  };
}

export function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "Role",
    metadata: { namespace, name },
    rules,
  };
}

export function binding(
  name: string,
  roleRef: { kind: "Role" | "ClusterRole"; name: string },
  subjects: Subject[],
  namespace?: string,
): RoleBinding {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: namespace ? "RoleBinding" : "ClusterRoleBinding",
    metadata: { name, ...(namespace ? { namespace } : {}) },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", ...roleRef },
    subjects,
  };
}

export const user = (name: string): Subject => ({
  kind: "User",
  apiGroup: "rbac.authorization.k8s.io",
  name,
});
export const group = (name: string): Subject => ({
  kind: "Group",
  apiGroup: "rbac.authorization.k8s.io",
  name,
});
