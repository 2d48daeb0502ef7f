/**
 * The default ClusterRoles and ClusterRoleBindings kube-apiserver creates (from
 * kube v1.32's bootstrappolicy): cluster-admin, the aggregated admin/edit/view
 * with their `system:aggregate-to-*` parts (and metrics-server's
 * `system:aggregated-metrics-reader`, as Hearth serves metrics.k8s.io itself),
 * and the roles every authenticated
 * user holds (discovery, basic-user, public-info-viewer).
 */
import type { PolicyRule, Subject } from "./types.js";
import { RBAC_GROUP } from "./types.js";

const READ = ["get", "list", "watch"];
const WRITE = ["create", "delete", "deletecollection", "patch", "update"];
const READ_WRITE = [
  "create",
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "update",
  "watch",
];
const AGGREGATE = "rbac.authorization.k8s.io/aggregate-to-";

export interface BootstrapClusterRole {
  name: string;
  labels?: Record<string, string>;
  /** Labels selected by the aggregationRule (one selector of matchLabels each). */
  aggregateFrom?: Record<string, string>[];
  rules: PolicyRule[];
}

export interface BootstrapClusterRoleBinding {
  name: string;
  role: string;
  subjects: Subject[];
}

function r(apiGroups: string[], resources: string[], verbs: string[]): PolicyRule {
  return { apiGroups, resources, verbs };
}

function urls(nonResourceURLs: string[], verbs = ["get"]): PolicyRule {
  return { nonResourceURLs, verbs };
}

const aggregateTo = (role: string) => ({ [`${AGGREGATE}${role}`]: "true" });

export const BOOTSTRAP_CLUSTER_ROLES: BootstrapClusterRole[] = [
  {
    name: "cluster-admin",
    rules: [r(["*"], ["*"], ["*"]), urls(["*"], ["*"])],
  },
  { name: "admin", aggregateFrom: [aggregateTo("admin")], rules: [] },
  {
    name: "edit",
    labels: aggregateTo("admin"),
    aggregateFrom: [aggregateTo("edit")],
    rules: [],
  },
  {
    name: "view",
    labels: aggregateTo("edit"),
    aggregateFrom: [aggregateTo("view")],
    rules: [],
  },
  {
    name: "system:aggregate-to-admin",
    labels: aggregateTo("admin"),
    rules: [
      r(["authorization.k8s.io"], ["localsubjectaccessreviews"], ["create"]),
      r([RBAC_GROUP], ["rolebindings", "roles"], READ_WRITE),
    ],
  },
  {
    name: "system:aggregate-to-edit",
    labels: aggregateTo("edit"),
    rules: [
      r(
        [""],
        ["pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "secrets", "services/proxy"],
        READ,
      ),
      r([""], ["serviceaccounts"], ["impersonate"]),
      r([""], ["pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy"], WRITE),
      r([""], ["pods/eviction"], ["create"]),
      r(
        [""],
        [
          "configmaps",
          "events",
          "persistentvolumeclaims",
          "replicationcontrollers",
          "replicationcontrollers/scale",
          "secrets",
          "serviceaccounts",
          "services",
          "services/proxy",
        ],
        WRITE,
      ),
      r([""], ["serviceaccounts/token"], ["create"]),
      r(
        ["apps"],
        [
          "daemonsets",
          "deployments",
          "deployments/rollback",
          "deployments/scale",
          "replicasets",
          "replicasets/scale",
          "statefulsets",
          "statefulsets/scale",
        ],
        WRITE,
      ),
      r(["autoscaling"], ["horizontalpodautoscalers"], WRITE),
      r(["batch"], ["cronjobs", "jobs"], WRITE),
      r(
        ["extensions"],
        [
          "daemonsets",
          "deployments",
          "deployments/rollback",
          "deployments/scale",
          "ingresses",
          "networkpolicies",
          "replicasets",
          "replicasets/scale",
          "replicationcontrollers/scale",
        ],
        WRITE,
      ),
      r(["policy"], ["poddisruptionbudgets"], WRITE),
      r(["networking.k8s.io"], ["ingresses", "networkpolicies"], WRITE),
      r(["coordination.k8s.io"], ["leases"], READ_WRITE),
    ],
  },
  {
    name: "system:aggregate-to-view",
    labels: aggregateTo("view"),
    rules: [
      r(
        [""],
        [
          "configmaps",
          "endpoints",
          "persistentvolumeclaims",
          "persistentvolumeclaims/status",
          "pods",
          "replicationcontrollers",
          "replicationcontrollers/scale",
          "serviceaccounts",
          "services",
          "services/status",
        ],
        READ,
      ),
      r(
        [""],
        [
          "bindings",
          "events",
          "limitranges",
          "namespaces/status",
          "pods/log",
          "pods/status",
          "replicationcontrollers/status",
          "resourcequotas",
          "resourcequotas/status",
        ],
        READ,
      ),
      r([""], ["namespaces"], READ),
      r(["discovery.k8s.io"], ["endpointslices"], READ),
      r(
        ["apps"],
        [
          "controllerrevisions",
          "daemonsets",
          "daemonsets/status",
          "deployments",
          "deployments/scale",
          "deployments/status",
          "replicasets",
          "replicasets/scale",
          "replicasets/status",
          "statefulsets",
          "statefulsets/scale",
          "statefulsets/status",
        ],
        READ,
      ),
      r(["autoscaling"], ["horizontalpodautoscalers", "horizontalpodautoscalers/status"], READ),
      r(["batch"], ["cronjobs", "cronjobs/status", "jobs", "jobs/status"], READ),
      r(
        ["extensions"],
        [
          "daemonsets",
          "daemonsets/status",
          "deployments",
          "deployments/scale",
          "deployments/status",
          "ingresses",
          "ingresses/status",
          "networkpolicies",
          "replicasets",
          "replicasets/scale",
          "replicasets/status",
          "replicationcontrollers/scale",
        ],
        READ,
      ),
      r(["policy"], ["poddisruptionbudgets", "poddisruptionbudgets/status"], READ),
      r(["networking.k8s.io"], ["ingresses", "ingresses/status", "networkpolicies"], READ),
    ],
  },
  {
    // metrics-server's manifest: PodMetrics and NodeMetrics for view, edit and admin.
    name: "system:aggregated-metrics-reader",
    labels: { ...aggregateTo("view"), ...aggregateTo("edit"), ...aggregateTo("admin") },
    rules: [r(["metrics.k8s.io"], ["pods", "nodes"], READ)],
  },
  {
    name: "system:discovery",
    rules: [
      urls([
        "/api",
        "/api/*",
        "/apis",
        "/apis/*",
        "/healthz",
        "/livez",
        "/openapi",
        "/openapi/*",
        "/readyz",
        "/version",
        "/version/",
      ]),
    ],
  },
  {
    name: "system:basic-user",
    rules: [
      r(
        ["authorization.k8s.io"],
        ["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
        ["create"],
      ),
      r(["authentication.k8s.io"], ["selfsubjectreviews"], ["create"]),
    ],
  },
  {
    name: "system:public-info-viewer",
    rules: [urls(["/healthz", "/livez", "/readyz", "/version", "/version/"])],
  },
  {
    name: "system:auth-delegator",
    rules: [
      r(["authentication.k8s.io"], ["tokenreviews"], ["create"]),
      r(["authorization.k8s.io"], ["subjectaccessreviews"], ["create"]),
    ],
  },
  {
    name: "system:monitoring",
    rules: [
      urls([
        "/healthz",
        "/healthz/*",
        "/livez",
        "/livez/*",
        "/metrics",
        "/metrics/slis",
        "/readyz",
        "/readyz/*",
      ]),
    ],
  },
];

const group = (name: string): Subject => ({ kind: "Group", apiGroup: RBAC_GROUP, name });

export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: BootstrapClusterRoleBinding[] = [
  { name: "cluster-admin", role: "cluster-admin", subjects: [group("system:masters")] },
  { name: "system:discovery", role: "system:discovery", subjects: [group("system:authenticated")] },
  {
    name: "system:basic-user",
    role: "system:basic-user",
    subjects: [group("system:authenticated")],
  },
  {
    name: "system:public-info-viewer",
    role: "system:public-info-viewer",
    subjects: [group("system:authenticated"), group("system:unauthenticated")],
  },
  { name: "system:monitoring", role: "system:monitoring", subjects: [group("system:monitoring")] },
];
