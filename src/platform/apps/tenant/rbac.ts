/**
 * Tenant access (Cozystack `cozy:tenant:<level>`): four levels, view < use <
 * admin < super-admin, each a ClusterRole. In each tenant namespace a
 * RoleBinding per level binds the groups `<ns>-<level'>` for every level' at or
 * above it, for the tenant itself and each of its ancestors, so an ancestor's
 * group reaches the whole subtree and a higher level includes the lower ones.
 */
import type { KubeObject } from "../../../api/index.js";
import { WORKLOADS_GROUP } from "../../workloads-api.js";
import { ancestry } from "./naming.js";

export const LEVELS = ["view", "use", "admin", "super-admin"] as const;
export type Level = (typeof LEVELS)[number];

export function roleName(level: Level): string {
  return `cozy:tenant:${level}`;
}

export function groupName(namespace: string, level: Level): string {
  return `${namespace}-${level}`;
}

export function tenantRoleBindings(namespace: string): KubeObject[] {
  const ancestors = ancestry(namespace);
  return LEVELS.map((level, i) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: roleName(level), namespace },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: roleName(level) },
    subjects: ancestors.flatMap((a) =>
      LEVELS.slice(i).map((l) => ({
        apiGroup: "rbac.authorization.k8s.io",
        kind: "Group",
        name: groupName(a, l),
      })),
    ),
  }));
}

const READ = ["get", "list", "watch"];
const WRITE = ["create", "update", "patch", "delete", "deletecollection"];

/**
 * The four ClusterRoles. `appPlurals` are the plurals of every app kind;
 * `adminPlurals` those an admin may manage (Cozystack: every app but tenants
 * and modules).
 *
 * App kinds are named, never `*`: in RBAC `*` matches subresources too, and an
 * app's `status` is the engine's alone (its inventory says what the engine may
 * delete). Only the app resources themselves are writable; their status is
 * readable (`<plural>/status`) and nothing else under them is granted.
 */
export function tenantClusterRoles(appPlurals: string[], adminPlurals: string[]): KubeObject[] {
  const apps = [...appPlurals].sort();
  const view = [
    {
      apiGroups: ["apps.cozystack.io"],
      resources: [...apps, ...apps.map((p) => `${p}/status`)],
      verbs: READ,
    },
    {
      apiGroups: [""],
      resources: [
        "pods",
        "services",
        "events",
        "persistentvolumeclaims",
        "configmaps",
        "resourcequotas",
        "limitranges",
      ],
      verbs: READ,
    },
    { apiGroups: ["batch"], resources: ["jobs", "cronjobs"], verbs: READ },
    {
      apiGroups: ["apps"],
      resources: [
        "deployments",
        "replicasets",
        "statefulsets",
        "daemonsets",
        "controllerrevisions",
      ],
      verbs: READ,
    },
    { apiGroups: ["policy"], resources: ["poddisruptionbudgets"], verbs: READ },
    // Cozystack's view role: what its apps' monitors say (read only; the platform writes them).
    { apiGroups: [WORKLOADS_GROUP], resources: ["workloadmonitors"], verbs: READ },
    // `kubectl top pods` in the tenant's namespaces (node metrics need cluster rights).
    { apiGroups: ["metrics.k8s.io"], resources: ["pods"], verbs: ["get", "list"] },
  ];
  // `use` works in the tenant's pods (Cozystack's `use` reaches its VMs' consoles and
  // port-forward): exec, attach and port-forward are `create` on those subresources.
  const use = [
    ...view,
    { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] },
    {
      apiGroups: [""],
      resources: ["pods/exec", "pods/attach", "pods/portforward"],
      verbs: ["create", "get"],
    },
  ];
  // Evicting a pod of the tenant's own apps respects their disruption budgets.
  const evict = { apiGroups: [""], resources: ["pods/eviction"], verbs: ["create"] };
  const admin = [
    ...use,
    evict,
    { apiGroups: ["apps.cozystack.io"], resources: adminPlurals, verbs: WRITE },
  ];
  const superAdmin = [
    ...use,
    evict,
    { apiGroups: ["apps.cozystack.io"], resources: apps, verbs: WRITE },
  ];
  const rules: Record<Level, unknown[]> = { view, use, admin, "super-admin": superAdmin };
  return LEVELS.map((level) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name: roleName(level) },
    rules: rules[level],
  }));
}
