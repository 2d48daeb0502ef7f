/**
 * The CustomResourceDefinitions of EtcdCluster and EtcdMember, applied by the
 * operator at start. Bad input is refused at the door by the schema and CEL
 * rules: replicas ≥ 0, storage.size a quantity, no operator-owned etcd flag in
 * options, tls and auth immutable once set.
 */
import type { KubeObject } from "../../../api/index.js";
import { rootSchema } from "../../definitions.js";
import { ETCD_GROUP } from "./types.js";

type Schema = Record<string, unknown>;

/** kube's quantity pattern (resource.Quantity's OpenAPI pattern). */
export const QUANTITY_PATTERN =
  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

/**
 * etcd flags the operator sets itself (identity, addresses, files, client
 * certificate checks), which `options` may not name.
 */
export const OWNED_FLAG_PATTERN =
  "^(name|data-dir|wal-dir|discovery.*|initial-.*|listen-.*|.*-urls|.*-file|auto-tls|peer-auto-tls|client-cert-auth|peer-client-cert-auth|(.*-)?(cert|key|ca)(-.*)?)$";

/** Typed `options` keys, and the kebab-case flags they stand for. */
export const TYPED_OPTIONS: Record<string, string> = {
  quotaBackendBytes: "quota-backend-bytes",
  autoCompactionMode: "auto-compaction-mode",
  autoCompactionRetention: "auto-compaction-retention",
  snapshotCount: "snapshot-count",
};

const typedFlags = Object.values(TYPED_OPTIONS).join("|");
const typedKeys = Object.keys(TYPED_OPTIONS).join("|");

const secretRef: Schema = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", minLength: 1 } },
};

const quantity: Schema = { "x-kubernetes-int-or-string": true, pattern: QUANTITY_PATTERN };

const clusterSpec: Schema = {
  type: "object",
  required: ["storage", "tls"],
  properties: {
    replicas: { type: "integer", minimum: 0, default: 3 },
    storage: {
      type: "object",
      required: ["size"],
      properties: {
        size: { type: "string", pattern: QUANTITY_PATTERN },
        storageClassName: { type: "string" },
      },
    },
    tls: {
      type: "object",
      required: ["client", "peer"],
      "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "tls is immutable" }],
      properties: {
        client: {
          type: "object",
          required: ["caSecretRef", "serverSecretRef", "clientSecretRef"],
          properties: {
            caSecretRef: secretRef,
            serverSecretRef: secretRef,
            clientSecretRef: secretRef,
          },
        },
        peer: {
          type: "object",
          required: ["caSecretRef", "secretRef"],
          properties: { caSecretRef: secretRef, secretRef },
        },
      },
    },
    auth: {
      type: "object",
      "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "auth is immutable" }],
      properties: { enabled: { type: "boolean" } },
    },
    options: {
      type: "object",
      additionalProperties: { "x-kubernetes-int-or-string": true },
      "x-kubernetes-validations": [
        {
          rule: `self.all(k, !k.matches('${OWNED_FLAG_PATTERN.replaceAll("\\", "\\\\")}'))`,
          message:
            "must not set flags the operator owns (name, data-dir, initial-*, listen-*, *-urls, certificate, key and CA files, client-cert-auth, peer-client-cert-auth)",
        },
        {
          rule: `self.all(k, k.matches('^(${typedKeys})$') || k.matches('^[a-z0-9]+(-[a-z0-9]+)*$'))`,
          message: `keys are ${Object.keys(TYPED_OPTIONS).join(", ")} or etcd flag names in kebab-case`,
        },
        {
          rule: `self.all(k, !k.matches('^(${typedFlags})$'))`,
          message: `use the typed keys ${Object.keys(TYPED_OPTIONS).join(", ")} for these flags`,
        },
        {
          rule: "['quotaBackendBytes', 'snapshotCount'].all(k, !(k in self) || type(self[k]) == int)",
          message: "quotaBackendBytes and snapshotCount are integers",
        },
      ],
    },
    resources: {
      type: "object",
      properties: {
        limits: { type: "object", additionalProperties: quantity },
        requests: { type: "object", additionalProperties: quantity },
      },
    },
  },
  "x-kubernetes-validations": [
    {
      rule: "!has(oldSelf.auth) || has(self.auth)",
      message: "auth is immutable once set",
      fieldPath: ".auth",
    },
  ],
};

const member = {
  type: "object",
  properties: {
    name: { type: "string" },
    id: { type: "string" },
    ready: { type: "boolean" },
    learner: { type: "boolean" },
  },
};

const conditions = {
  type: "array",
  items: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
};

/** A version's schema: the object with a required spec and a status of these fields. */
const schema = (spec: Schema, status: Record<string, Schema>): Schema => ({
  openAPIV3Schema: rootSchema({ spec }, { required: ["spec"], status }),
});

function crd(kind: string, plural: string, version: Schema): KubeObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${ETCD_GROUP}` },
    spec: {
      group: ETCD_GROUP,
      scope: "Namespaced",
      names: {
        kind,
        listKind: `${kind}List`,
        plural,
        singular: kind.toLowerCase(),
        categories: ["hearth"],
      },
      versions: [{ name: "v1alpha1", served: true, storage: true, ...version }],
    },
  };
}

const age = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" };
const condition = (type: string) => ({
  name: type,
  type: "string",
  jsonPath: `.status.conditions[?(@.type=="${type}")].status`,
});

export const ETCD_CLUSTER_CRD = crd("EtcdCluster", "etcdclusters", {
  subresources: {
    status: {},
    scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
  },
  additionalPrinterColumns: [
    { name: "Ready", type: "string", jsonPath: ".status.ready" },
    { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
    { name: "Status", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].reason' },
    condition("Progressing"),
    { name: "Cluster ID", type: "string", jsonPath: ".status.clusterID", priority: 1 },
    age,
  ],
  schema: schema(clusterSpec, {
    observedGeneration: { type: "integer" },
    ready: { type: "string" },
    readyMembers: { type: "integer" },
    replicas: { type: "integer" },
    members: { type: "array", items: member },
    clusterID: { type: "string" },
    authEnabled: { type: "boolean" },
    conditions,
  }),
});

export const ETCD_MEMBER_CRD = crd("EtcdMember", "etcdmembers", {
  subresources: { status: {} },
  additionalPrinterColumns: [
    { name: "Cluster", type: "string", jsonPath: ".spec.cluster" },
    { name: "Ready", type: "boolean", jsonPath: ".status.ready" },
    { name: "State", type: "string", jsonPath: ".spec.initialClusterState" },
    { name: "Pod IP", type: "string", jsonPath: ".status.podIP", priority: 1 },
    age,
  ],
  schema: schema(
    {
      type: "object",
      required: ["cluster"],
      properties: {
        cluster: {
          type: "string",
          "x-kubernetes-validations": [
            { rule: "self == oldSelf", message: "cluster is immutable" },
          ],
        },
        initialCluster: { type: "string" },
        initialClusterState: { type: "string", enum: ["new", "existing"] },
      },
    },
    { ready: { type: "boolean" }, podIP: { type: "string" }, conditions },
  ),
});

export const ETCD_CRDS = [ETCD_CLUSTER_CRD, ETCD_MEMBER_CRD];
