/**
 * The built-in kinds the apiserver serves, registered in this one list:
 * v1 Namespace, ConfigMap, Secret, ServiceAccount, Event; coordination.k8s.io/v1
 * Lease; apiextensions.k8s.io/v1 CustomResourceDefinition; events.k8s.io/v1
 * Event (over v1 Events' storage); rbac.authorization.k8s.io/v1 Role,
 * ClusterRole, RoleBinding, ClusterRoleBinding; the computed reviews of
 * authorization.k8s.io and authentication.k8s.io; ServiceAccount `token`;
 * storage.k8s.io/v1 StorageClass, v1 PersistentVolume and PersistentVolumeClaim;
 * v1 Service and Endpoints, discovery.k8s.io/v1 EndpointSlice; v1 Pod (with
 * `log` and `binding`, `pod-type.ts`) and Node (`node-type.ts`); batch/v1 Job
 * and CronJob (`batch-types.ts`); apps/v1 Deployment and ReplicaSet
 * (`apps-types.ts`), StatefulSet, DaemonSet and ControllerRevision
 * (`apps-stateful-types.ts`); v1 ResourceQuota and LimitRange
 * (`quota-types.ts`); policy/v1 PodDisruptionBudget (`policy-types.ts`, with
 * the Pod's `eviction` subresource); metrics.k8s.io/v1beta1 PodMetrics and
 * NodeMetrics, computed from the node agents (`../metrics-api/`).
 */
import type { KubeObject } from "../../api/index.js";
import { bindingResourceType, policyResourceType } from "../admission/policy/index.js";
import { AUTH_REVIEW_TYPES, handleTokenRequest } from "../auth/index.js";
import { crdResourceType } from "../crd/crd-kind.js";
import { eventColumns, str } from "../events/columns.js";
import { eventsV1Type, legacyEventErrors } from "../events/index.js";
import { METRICS_TYPES } from "../metrics-api/index.js";
import { RBAC_TYPES } from "../rbac/index.js";
import {
  configMapSchema,
  eventSchema,
  leaseSchema,
  secretSchema,
  serviceAccountSchema,
} from "../schemas/index.js";
import { APPS_STATEFUL_TYPES } from "./apps-stateful-types.js";
import { APPS_TYPES } from "./apps-types.js";
import { BATCH_TYPES } from "./batch-types.js";
import { validateConfigMap } from "./config-map-validation.js";
import { validateLease } from "./lease-validation.js";
import { namespaceType } from "./namespace-type.js";
import { nodeType } from "./node-type.js";
import { podType } from "./pod-type.js";
import { POLICY_TYPES } from "./policy-types.js";
import { QUOTA_TYPES } from "./quota-types.js";
import { builtinType, type ResourceType } from "./resource-type.js";
import { validateSecret } from "./secret-validation.js";
import { serviceTypes } from "./service-types.js";
import { STORAGE_TYPES } from "./storage-types.js";

const dataCount = (o: KubeObject) =>
  Object.keys((o.data as object | undefined) ?? {}).length +
  Object.keys((o.binaryData as object | undefined) ?? {}).length;

export { PROTECTED_NAMESPACES } from "./namespace-type.js";

const configMaps = builtinType({
  group: "",
  version: "v1",
  kind: "ConfigMap",
  plural: "configmaps",
  singular: "configmap",
  shortNames: ["cm"],
  schema: configMapSchema,
  columns: [
    { name: "Data", type: "integer", description: "Number of data entries", cell: dataCount },
  ],
  validate: validateConfigMap,
});

const secrets = builtinType({
  group: "",
  version: "v1",
  kind: "Secret",
  plural: "secrets",
  singular: "secret",
  schema: secretSchema,
  columns: [
    {
      name: "Type",
      type: "string",
      description: "The type of the secret",
      cell: (o) => String(o.type ?? ""),
    },
    { name: "Data", type: "string", description: "Number of data entries", cell: dataCount },
  ],
  selectableFields: (o) => ({ type: String(o.type ?? "") }),
  prepareForCreate: foldStringData,
  prepareForUpdate: foldStringData,
  validate: validateSecret,
});

/** Secrets: `stringData` is write-only; it lands base64-encoded in `data`. */
function foldStringData(obj: KubeObject): void {
  if (obj.type === undefined) obj.type = "Opaque";
  const stringData = obj.stringData as Record<string, string> | undefined;
  if (!stringData) return;
  const data = { ...((obj.data as Record<string, string> | undefined) ?? {}) };
  for (const [k, v] of Object.entries(stringData))
    data[k] = Buffer.from(v, "utf8").toString("base64");
  obj.data = data;
  delete obj.stringData;
}

const serviceAccounts = builtinType({
  group: "",
  version: "v1",
  kind: "ServiceAccount",
  plural: "serviceaccounts",
  singular: "serviceaccount",
  returnDeletedObject: true,
  shortNames: ["sa"],
  schema: serviceAccountSchema,
  subresourceHandlers: { token: handleTokenRequest },
  columns: [
    {
      name: "Secrets",
      type: "string",
      description: "Number of secrets",
      cell: (o) => ((o.secrets as unknown[]) ?? []).length,
    },
  ],
});

const events = builtinType({
  group: "",
  version: "v1",
  kind: "Event",
  plural: "events",
  singular: "event",
  shortNames: ["ev"],
  nameRule: "path-segment",
  schema: eventSchema,
  ownColumns: true,
  columns: eventColumns({
    lastSeen: (o) => str(o.lastTimestamp || o.eventTime || o.metadata.creationTimestamp),
    regarding: (o) => o.involvedObject,
    message: (o) => o.message,
  }),
  selectableFields: (o) => {
    const ref = (o.involvedObject ?? {}) as Record<string, unknown>;
    const out: Record<string, string> = { reason: str(o.reason), type: str(o.type) };
    for (const k of [
      "kind",
      "namespace",
      "name",
      "uid",
      "apiVersion",
      "resourceVersion",
      "fieldPath",
    ])
      out[`involvedObject.${k}`] = str(ref[k]);
    return out;
  },
  validate: (obj) => legacyEventErrors(obj),
});

const leases = builtinType({
  group: "coordination.k8s.io",
  version: "v1",
  kind: "Lease",
  plural: "leases",
  singular: "lease",
  schema: leaseSchema,
  columns: [
    {
      name: "Holder",
      type: "string",
      description: "The holder of the lease",
      cell: (o) => str((o.spec as { holderIdentity?: string } | undefined)?.holderIdentity),
    },
  ],
  validate: validateLease,
});

/** Every built-in kind, in discovery order; Services get ClusterIPs from `serviceCidr`. */
export function builtinTypes(serviceCidr?: string): ResourceType[] {
  return [
    namespaceType,
    podType,
    nodeType,
    configMaps,
    secrets,
    serviceAccounts,
    events,
    leases,
    crdResourceType,
    policyResourceType,
    bindingResourceType,
    eventsV1Type,
    ...RBAC_TYPES,
    ...AUTH_REVIEW_TYPES,
    ...serviceTypes(serviceCidr),
    ...STORAGE_TYPES,
    ...BATCH_TYPES,
    ...APPS_TYPES,
    ...APPS_STATEFUL_TYPES,
    ...QUOTA_TYPES,
    ...POLICY_TYPES,
    ...METRICS_TYPES,
  ];
}
