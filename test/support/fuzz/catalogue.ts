/**
 * What the fuzz generator aims at: every kind the server under test serves
 * (built-in kinds, two CRDs, the platform's app kinds), each with where it
 * lives, a valid object to start mutations from, its subresources, and the
 * computed review kinds that take only a POST. Sentinels — one valid object per
 * kind, kept alive by the runner — are these valid objects under SENTINEL names.
 */

/** The namespace every namespaced sentinel lives in (never a target of DELETE). */
export const FUZZ_NAMESPACE = "fuzz";
/** Tenants and app objects live in a tenant namespace. */
export const TENANT_NAMESPACE = "tenant-root";
export const SENTINEL = "fz-1";
/** The admin's bearer token (system:masters) on the server under test. */
export const ADMIN_TOKEN = "fuzz-admin-token";
/** A user RBAC grants nothing: all it may do is discovery and reviews of itself. */
export const NOBODY_TOKEN = "fuzz-nobody-token";
export const NOBODY_USER = "fuzz-nobody";
/** Label on every sentinel: deletecollection on cluster-scoped kinds selects by it. */
export const SENTINEL_LABEL = "fuzz.hearth.io/sentinel";

type Obj = Record<string, unknown>;

/**
 * The spec of the `gadgets.fuzz.hearth.io` CRD, one served and stored version
 * whose `spec` has `properties` (and `extra` beside them, for schemas the
 * regressions pin); the catalogue's CRD sentinel and those regressions share it.
 */
export function gadgetCrdSpec(properties: unknown, extra: Obj = {}): Obj {
  return {
    group: "fuzz.hearth.io",
    scope: "Namespaced",
    names: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: { spec: { type: "object", properties, ...extra } },
          },
        },
      },
    ],
  };
}

export interface FuzzKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** The namespace its sentinel lives in (namespaced kinds). */
  namespace?: string;
  /** The sentinel's name (default SENTINEL). */
  name?: string;
  /** A valid object named `name` in `namespace`. */
  valid(name: string, namespace: string | undefined): Obj;
  /** Subresources served for it (besides the object itself). */
  subresources?: string[];
  /**
   * The environment depends on its objects (CRDs, bootstrap roles): requests aim
   * only at sentinel names, and deletecollection always carries a selector.
   */
  guarded?: boolean;
  /** Where its objects are stored, when another kind's storage holds them. */
  storage?: { group: string; plural: string };
}

export interface ReviewKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  valid(namespace: string | undefined): Obj;
}

const meta = (name: string, namespace: string | undefined, extra: Obj = {}): Obj => ({
  name,
  ...(namespace ? { namespace } : {}),
  labels: { [SENTINEL_LABEL]: "true", app: "fuzz" },
  annotations: { "fuzz.hearth.io/note": "sentinel" },
  ...extra,
});

const container = { name: "main", image: "busybox:1.36", command: ["sleep", "3600"] };
const podSpec = { containers: [container], restartPolicy: "Never" };
const podTemplate = { metadata: { labels: { app: "fuzz" } }, spec: podSpec };
/** A Deployment's or ReplicaSet's spec: no replicas, a template that restarts Always. */
const workload = () => ({
  replicas: 0,
  selector: { matchLabels: { app: "fuzz" } },
  template: { ...podTemplate, spec: { ...podSpec, restartPolicy: "Always" } },
});

const core = (
  kind: string,
  plural: string,
  namespaced: boolean,
  body: (name: string, ns: string | undefined) => Obj,
  extra: Partial<FuzzKind> = {},
): FuzzKind => ({
  group: "",
  version: "v1",
  kind,
  plural,
  namespaced,
  ...(namespaced ? { namespace: FUZZ_NAMESPACE } : {}),
  valid: (name, ns) => ({ apiVersion: "v1", kind, metadata: meta(name, ns), ...body(name, ns) }),
  ...extra,
});

const grouped = (
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
  body: (name: string, ns: string | undefined) => Obj,
  extra: Partial<FuzzKind> = {},
): FuzzKind => ({
  group,
  version,
  kind,
  plural,
  namespaced,
  ...(namespaced ? { namespace: FUZZ_NAMESPACE } : {}),
  valid: (name, ns) => ({
    apiVersion: `${group}/${version}`,
    kind,
    metadata: meta(name, ns),
    ...body(name, ns),
  }),
  ...extra,
});

const rules = [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list"] }];
const subject = { kind: "ServiceAccount", name: "fz-1", namespace: FUZZ_NAMESPACE };

export const FUZZ_KINDS: FuzzKind[] = [
  core("ConfigMap", "configmaps", true, () => ({ data: { a: "1", "b.txt": "two" } })),
  core("Secret", "secrets", true, () => ({ type: "Opaque", data: { a: "MQ==" } })),
  core("Namespace", "namespaces", false, () => ({ spec: { finalizers: ["kubernetes"] } }), {
    name: "fz-ns-1",
    subresources: ["status", "finalize"],
  }),
  core("ServiceAccount", "serviceaccounts", true, () => ({}), { subresources: ["token"] }),
  core(
    "Pod",
    "pods",
    true,
    () => ({ spec: { ...podSpec, nodeName: undefined, terminationGracePeriodSeconds: 0 } }),
    { subresources: ["status", "binding", "log"] },
  ),
  core(
    "Service",
    "services",
    true,
    () => ({ spec: { selector: { app: "fuzz" }, ports: [{ port: 80, targetPort: 8080 }] } }),
    { subresources: ["status"] },
  ),
  core("Endpoints", "endpoints", true, () => ({
    subsets: [{ addresses: [{ ip: "10.0.0.1" }], ports: [{ port: 80 }] }],
  })),
  core("Event", "events", true, (name, ns) => ({
    involvedObject: { kind: "ConfigMap", name, namespace: ns, apiVersion: "v1" },
    reason: "Fuzzed",
    message: "a sentinel event",
    type: "Normal",
    source: { component: "fuzz" },
  })),
  core(
    "PersistentVolumeClaim",
    "persistentvolumeclaims",
    true,
    () => ({
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    }),
    { subresources: ["status"] },
  ),
  core(
    "PersistentVolume",
    "persistentvolumes",
    false,
    () => ({
      spec: {
        capacity: { storage: "1Gi" },
        accessModes: ["ReadWriteOnce"],
        hostPath: { path: "/tmp/hearth-fuzz-never-used" },
        persistentVolumeReclaimPolicy: "Retain",
      },
    }),
    { subresources: ["status"] },
  ),
  core("Node", "nodes", false, () => ({ spec: { podCIDR: "10.244.9.0/24" } }), {
    subresources: ["status"],
  }),
  core(
    "ResourceQuota",
    "resourcequotas",
    true,
    () => ({ spec: { hard: { "count/widgets.rules.example.com": "1000" } } }),
    { subresources: ["status"] },
  ),
  core("LimitRange", "limitranges", true, () => ({
    spec: { limits: [{ type: "Container", max: { memory: "64Gi" } }] },
  })),
  grouped("coordination.k8s.io", "v1", "Lease", "leases", true, () => ({
    spec: { holderIdentity: "fuzz", leaseDurationSeconds: 15 },
  })),
  grouped("batch", "v1", "Job", "jobs", true, () => ({ spec: { template: podTemplate } }), {
    subresources: ["status"],
  }),
  grouped(
    "batch",
    "v1",
    "CronJob",
    "cronjobs",
    true,
    () => ({
      spec: {
        schedule: "0 0 1 1 *",
        suspend: true,
        jobTemplate: { spec: { template: podTemplate } },
      },
    }),
    { subresources: ["status"] },
  ),
  grouped("apps", "v1", "Deployment", "deployments", true, () => ({ spec: workload() }), {
    subresources: ["status", "scale"],
  }),
  grouped("apps", "v1", "ReplicaSet", "replicasets", true, () => ({ spec: workload() }), {
    subresources: ["status", "scale"],
  }),
  grouped("storage.k8s.io", "v1", "StorageClass", "storageclasses", false, () => ({
    provisioner: "fuzz.hearth.io/none",
    reclaimPolicy: "Delete",
  })),
  grouped("discovery.k8s.io", "v1", "EndpointSlice", "endpointslices", true, () => ({
    addressType: "IPv4",
    endpoints: [{ addresses: ["10.0.0.1"] }],
    ports: [{ port: 80, protocol: "TCP" }],
  })),
  grouped(
    "events.k8s.io",
    "v1",
    "Event",
    "events",
    true,
    (name, ns) => ({
      eventTime: "2024-01-01T00:00:00.000000Z",
      reportingController: "fuzz.hearth.io/fuzz",
      reportingInstance: "fuzz-1",
      action: "Fuzz",
      reason: "Fuzzed",
      type: "Normal",
      regarding: { kind: "ConfigMap", name, namespace: ns, apiVersion: "v1" },
      note: "a sentinel event",
    }),
    { name: "fz-2", storage: { group: "", plural: "events" } },
  ),
  grouped("rbac.authorization.k8s.io", "v1", "Role", "roles", true, () => ({ rules })),
  grouped("rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", false, () => ({
    rules,
  })),
  grouped("rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings", true, () => ({
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "fz-1" },
    subjects: [subject],
  })),
  grouped(
    "rbac.authorization.k8s.io",
    "v1",
    "ClusterRoleBinding",
    "clusterrolebindings",
    false,
    () => ({
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "fz-1" },
      subjects: [subject],
    }),
  ),
  grouped(
    "admissionregistration.k8s.io",
    "v1",
    "ValidatingAdmissionPolicy",
    "validatingadmissionpolicies",
    false,
    () => ({
      spec: {
        failurePolicy: "Fail",
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: [""],
              apiVersions: ["v1"],
              operations: ["CREATE"],
              resources: ["configmaps"],
            },
          ],
        },
        validations: [{ expression: "object.metadata.name != 'fz-forbidden'" }],
      },
    }),
    { subresources: ["status"] },
  ),
  grouped(
    "admissionregistration.k8s.io",
    "v1",
    "ValidatingAdmissionPolicyBinding",
    "validatingadmissionpolicybindings",
    false,
    () => ({ spec: { policyName: "fz-1", validationActions: ["Deny"] } }),
  ),
  grouped(
    "apiextensions.k8s.io",
    "v1",
    "CustomResourceDefinition",
    "customresourcedefinitions",
    false,
    () => ({ spec: gadgetCrdSpec({ size: { type: "integer" } }) }),
    { name: "gadgets.fuzz.hearth.io", guarded: true, subresources: ["status"] },
  ),
  grouped(
    "stable.example.com",
    "v1",
    "CronTab",
    "crontabs",
    true,
    () => ({ spec: { cronSpec: "* * * * */5", image: "busybox", replicas: 1 } }),
    { subresources: ["status"] },
  ),
  grouped(
    "rules.example.com",
    "v1",
    "Widget",
    "widgets",
    true,
    () => ({ spec: { image: "busybox", replicas: 2, mode: "Safe", tags: ["a"] } }),
    { subresources: ["status", "scale"] },
  ),
  grouped("apps.cozystack.io", "v1alpha1", "Tenant", "tenants", true, () => ({ spec: {} }), {
    namespace: TENANT_NAMESPACE,
    name: "fz",
    subresources: ["status"],
  }),
  grouped(
    "apps.cozystack.io",
    "v1alpha1",
    "Etcd",
    "etcds",
    true,
    () => ({ spec: { replicas: 3, size: "1Gi" } }),
    { namespace: TENANT_NAMESPACE, name: "etcd", subresources: ["status"] },
  ),
];

export const REVIEW_KINDS: ReviewKind[] = [
  {
    group: "authorization.k8s.io",
    version: "v1",
    kind: "SelfSubjectAccessReview",
    plural: "selfsubjectaccessreviews",
    namespaced: false,
    valid: () => ({
      spec: { resourceAttributes: { verb: "get", resource: "configmaps", namespace: "fuzz" } },
    }),
  },
  {
    group: "authorization.k8s.io",
    version: "v1",
    kind: "SubjectAccessReview",
    plural: "subjectaccessreviews",
    namespaced: false,
    valid: () => ({
      spec: {
        user: "fuzz-user",
        groups: ["fuzzers"],
        resourceAttributes: { verb: "list", resource: "pods", namespace: "fuzz" },
      },
    }),
  },
  {
    group: "authorization.k8s.io",
    version: "v1",
    kind: "LocalSubjectAccessReview",
    plural: "localsubjectaccessreviews",
    namespaced: true,
    valid: (ns) => ({
      spec: {
        user: "fuzz-user",
        resourceAttributes: { verb: "delete", resource: "secrets", namespace: ns },
      },
    }),
  },
  {
    group: "authorization.k8s.io",
    version: "v1",
    kind: "SelfSubjectRulesReview",
    plural: "selfsubjectrulesreviews",
    namespaced: false,
    valid: () => ({ spec: { namespace: "fuzz" } }),
  },
  {
    group: "authentication.k8s.io",
    version: "v1",
    kind: "SelfSubjectReview",
    plural: "selfsubjectreviews",
    namespaced: false,
    valid: () => ({}),
  },
];

/** The API path of a kind's collection (`namespace` for namespaced kinds). */
export function collectionPath(
  t: { group: string; version: string; plural: string },
  namespace?: string,
): string {
  const root = t.group === "" ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`;
  return namespace === undefined
    ? `${root}/${t.plural}`
    : `${root}/namespaces/${namespace}/${t.plural}`;
}

export function sentinelName(k: FuzzKind): string {
  return k.name ?? SENTINEL;
}

export function sentinelNamespace(k: FuzzKind): string | undefined {
  return k.namespaced ? (k.namespace ?? FUZZ_NAMESPACE) : undefined;
}

/** The sentinel's own path. */
export function sentinelPath(k: FuzzKind): string {
  return `${collectionPath(k, sentinelNamespace(k))}/${sentinelName(k)}`;
}

export function apiVersionOf(t: { group: string; version: string }): string {
  return t.group === "" ? t.version : `${t.group}/${t.version}`;
}
