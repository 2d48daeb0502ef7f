/**
 * The apps/v1 kinds StatefulSet (with `status` and `scale`), DaemonSet (with
 * `status`) and ControllerRevision: kube's defaults (SetDefaults_StatefulSet,
 * SetDefaults_DaemonSet and the pod defaults of their templates), validation
 * (`apps-stateful-validation.ts`) and columns (`apps-stateful-columns.ts`).
 */
import type { DaemonSet, PodTemplateSpec, StatefulSet } from "../../api/index.js";
import { scaleHandler } from "../crd/scale-handler.js";
import { controllerRevisionSchema, daemonSetSchema, statefulSetSchema } from "../schemas/index.js";
import {
  CONTROLLER_REVISION_COLUMNS,
  DAEMONSET_COLUMNS,
  STATEFULSET_COLUMNS,
} from "./apps-stateful-columns.js";
import {
  validateControllerRevision,
  validateDaemonSet,
  validateStatefulSet,
} from "./apps-stateful-validation.js";
import { WORKLOAD_SCALE } from "./apps-types.js";
import { defaultPod } from "./pod-defaults.js";
import { builtinType, type ResourceType } from "./resource-type.js";

function defaultTemplate(template: PodTemplateSpec | undefined): void {
  if (template?.spec)
    defaultPod({ apiVersion: "v1", kind: "Pod", metadata: {}, spec: template.spec });
}

/** SetDefaults_StatefulSet (apps/v1), with the claim templates' PVC defaults. */
function defaultStatefulSet(sts: StatefulSet): void {
  const spec = sts.spec;
  if (!spec) return;
  spec.podManagementPolicy ??= "OrderedReady";
  spec.updateStrategy ??= {};
  spec.updateStrategy.type ??= "RollingUpdate";
  if (spec.updateStrategy.type === "RollingUpdate") {
    spec.updateStrategy.rollingUpdate ??= {};
    spec.updateStrategy.rollingUpdate.partition ??= 0;
  }
  spec.persistentVolumeClaimRetentionPolicy ??= {};
  spec.persistentVolumeClaimRetentionPolicy.whenDeleted ??= "Retain";
  spec.persistentVolumeClaimRetentionPolicy.whenScaled ??= "Retain";
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  for (const claim of spec.volumeClaimTemplates ?? []) {
    claim.apiVersion ??= "v1";
    claim.kind ??= "PersistentVolumeClaim";
    claim.spec ??= {};
    claim.spec.volumeMode ??= "Filesystem";
    claim.status ??= { phase: "Pending" };
  }
  defaultTemplate(spec.template);
}

/** SetDefaults_DaemonSet (apps/v1). */
function defaultDaemonSet(ds: DaemonSet): void {
  const spec = ds.spec;
  if (!spec) return;
  spec.updateStrategy ??= {};
  spec.updateStrategy.type ??= "RollingUpdate";
  if (spec.updateStrategy.type === "RollingUpdate") {
    spec.updateStrategy.rollingUpdate ??= {};
    spec.updateStrategy.rollingUpdate.maxUnavailable ??= 1;
    spec.updateStrategy.rollingUpdate.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  defaultTemplate(spec.template);
}

export const statefulSetType: ResourceType = builtinType({
  group: "apps",
  version: "v1",
  kind: "StatefulSet",
  plural: "statefulsets",
  singular: "statefulset",
  shortNames: ["sts"],
  categories: ["all"],
  status: true,
  scale: WORKLOAD_SCALE,
  subresourceHandlers: { scale: scaleHandler(WORKLOAD_SCALE) },
  schema: statefulSetSchema,
  columns: STATEFULSET_COLUMNS,
  prepareForCreate: (obj) => defaultStatefulSet(obj as StatefulSet),
  prepareForUpdate: (obj) => defaultStatefulSet(obj as StatefulSet),
  validate: validateStatefulSet,
});

export const daemonSetType: ResourceType = builtinType({
  group: "apps",
  version: "v1",
  kind: "DaemonSet",
  plural: "daemonsets",
  singular: "daemonset",
  shortNames: ["ds"],
  categories: ["all"],
  status: true,
  schema: daemonSetSchema,
  columns: DAEMONSET_COLUMNS,
  prepareForCreate: (obj) => defaultDaemonSet(obj as DaemonSet),
  prepareForUpdate: (obj) => defaultDaemonSet(obj as DaemonSet),
  validate: validateDaemonSet,
});

export const controllerRevisionType: ResourceType = builtinType({
  group: "apps",
  version: "v1",
  kind: "ControllerRevision",
  plural: "controllerrevisions",
  singular: "controllerrevision",
  schema: controllerRevisionSchema,
  columns: CONTROLLER_REVISION_COLUMNS,
  validate: validateControllerRevision,
});

export const APPS_STATEFUL_TYPES: ResourceType[] = [
  statefulSetType,
  daemonSetType,
  controllerRevisionType,
];
