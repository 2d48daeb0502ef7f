/**
 * The apps/v1 kinds Deployment and ReplicaSet: kube's defaults
 * (SetDefaults_Deployment, SetDefaults_ReplicaSet and the pod defaults of the
 * template), the `status` and `scale` subresources (an autoscaling/v1 Scale
 * whose selector is the spec's, as kube's scale REST answers), validation
 * (`apps-validation.ts`) and the columns `kubectl get` prints (`apps-columns.ts`).
 */
import type {
  Deployment,
  KubeObject,
  PodTemplateSpec,
  ReplicaSet,
  StatefulSet,
} from "../../api/index.js";
import { scaleHandler } from "../crd/scale-handler.js";
import { deploymentSchema, replicaSetSchema } from "../schemas/index.js";
import { DEPLOYMENT_COLUMNS, REPLICA_SET_COLUMNS } from "./apps-columns.js";
import { validateDeployment, validateReplicaSet } from "./apps-validation.js";
import { formatSelector } from "./batch-columns.js";
import { defaultPod } from "./pod-defaults.js";
import { type ResourceType, type ScaleSubresource, STANDARD_VERBS } from "./resource-type.js";

function defaultTemplate(template: PodTemplateSpec | undefined): void {
  if (template?.spec)
    defaultPod({ apiVersion: "v1", kind: "Pod", metadata: {}, spec: template.spec });
}

/** SetDefaults_Deployment (apps/v1). */
function defaultDeployment(d: Deployment): void {
  const spec = d.spec;
  if (!spec || typeof spec !== "object") return;
  spec.replicas ??= 1;
  spec.strategy ??= {};
  const strategy = spec.strategy;
  if (!strategy.type) strategy.type = "RollingUpdate";
  if (strategy.type === "RollingUpdate") {
    strategy.rollingUpdate ??= {};
    strategy.rollingUpdate.maxUnavailable ??= "25%";
    strategy.rollingUpdate.maxSurge ??= "25%";
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultTemplate(spec.template);
}

/** SetDefaults_ReplicaSet. */
function defaultReplicaSet(rs: ReplicaSet): void {
  const spec = rs.spec;
  if (!spec || typeof spec !== "object") return;
  spec.replicas ??= 1;
  defaultTemplate(spec.template);
}

/** The Scale of a workload: replicas from spec and status, the selector from the spec. */
export const WORKLOAD_SCALE: ScaleSubresource = {
  specReplicasPath: ".spec.replicas",
  statusReplicasPath: ".status.replicas",
  selector: (o) => {
    const sel = (o as Deployment | StatefulSet).spec?.selector;
    const text = formatSelector(sel);
    return text === "<none>" ? undefined : text;
  },
};

const appsType = (
  base: Pick<ResourceType, "kind" | "plural" | "singular" | "shortNames" | "schema" | "columns">,
  prepare: (o: KubeObject) => void,
  validate: ResourceType["validate"],
): ResourceType => ({
  group: "apps",
  version: "v1",
  listKind: `${base.kind}List`,
  namespaced: true,
  categories: ["all"],
  verbs: STANDARD_VERBS,
  status: true,
  scale: WORKLOAD_SCALE,
  subresourceHandlers: { scale: scaleHandler(WORKLOAD_SCALE) },
  nameRule: "dns1123-subdomain",
  strategicMergePatch: true,
  ...base,
  prepareForCreate(obj) {
    delete obj.status;
    prepare(obj);
  },
  prepareForUpdate: prepare,
  ...(validate ? { validate } : {}),
});

export const deploymentType = appsType(
  {
    kind: "Deployment",
    plural: "deployments",
    singular: "deployment",
    shortNames: ["deploy"],
    schema: deploymentSchema,
    columns: DEPLOYMENT_COLUMNS,
  },
  (o) => defaultDeployment(o as Deployment),
  validateDeployment,
);

export const replicaSetType = appsType(
  {
    kind: "ReplicaSet",
    plural: "replicasets",
    singular: "replicaset",
    shortNames: ["rs"],
    schema: replicaSetSchema,
    columns: REPLICA_SET_COLUMNS,
  },
  (o) => defaultReplicaSet(o as ReplicaSet),
  validateReplicaSet,
);

export const APPS_TYPES: ResourceType[] = [deploymentType, replicaSetType];
