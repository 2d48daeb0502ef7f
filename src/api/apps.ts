/**
 * apps/v1 Deployment and ReplicaSet as code reads them, with the label and
 * annotation names the Deployment controller, the ReplicaSet controller and
 * kubectl (`rollout history|undo`) agree on. Field names, condition types and
 * reasons are Kubernetes' (k8s.io/api/apps/v1, pkg/controller/deployment/util).
 */
import type { LabelSelector, PodTemplateSpec } from "./batch.js";
import type { IntOrString } from "./int-or-percent.js";
import type { KubeObject } from "./types.js";

/** Put by the Deployment controller on a ReplicaSet's selector, template and pods. */
export const POD_TEMPLATE_HASH_LABEL = "pod-template-hash";
/** The rollout revision of a Deployment and of each of its ReplicaSets. */
export const REVISION_ANNOTATION = "deployment.kubernetes.io/revision";
/** Earlier revisions a ReplicaSet held (a rollback reuses a ReplicaSet). */
export const REVISION_HISTORY_ANNOTATION = "deployment.kubernetes.io/revision-history";
/** The Deployment's replicas when it last scaled this ReplicaSet. */
export const DESIRED_REPLICAS_ANNOTATION = "deployment.kubernetes.io/desired-replicas";
/** replicas + maxSurge when it last scaled this ReplicaSet (proportional scaling). */
export const MAX_REPLICAS_ANNOTATION = "deployment.kubernetes.io/max-replicas";
/** A pod's cost of deletion on scale-down (lower goes first). */
export const POD_DELETION_COST_ANNOTATION = "controller.kubernetes.io/pod-deletion-cost";

export interface RollingUpdateDeployment {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DeploymentStrategy {
  type?: "Recreate" | "RollingUpdate";
  rollingUpdate?: RollingUpdateDeployment;
}

export interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelector;
  template: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export type DeploymentConditionType = "Available" | "Progressing" | "ReplicaFailure";

export interface DeploymentCondition {
  type: DeploymentConditionType;
  status: "True" | "False" | "Unknown";
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  spec: DeploymentSpec;
  status?: DeploymentStatus;
}

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
}

export interface ReplicaSetCondition {
  type: "ReplicaFailure";
  status: "True" | "False" | "Unknown";
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

export interface ReplicaSet extends KubeObject {
  spec: ReplicaSetSpec;
  status?: ReplicaSetStatus;
}
