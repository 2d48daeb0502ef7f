/**
 * apps/v1 StatefulSet as code reads it (k8s.io/api/apps/v1), and the labels the
 * StatefulSet controller puts on its pods. Shared by the apiserver (defaults,
 * validation) and the controller.
 */
import type { LabelSelector, PodTemplateSpec } from "./batch.js";
import type { KubeObject, ObjectMeta } from "./types.js";

/** The pod's own name, so a Service can select exactly one member. */
export const STATEFULSET_POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
/** The pod's ordinal (kube 1.28+, PodIndexLabel). */
export const POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
/** The ControllerRevision a pod was made from (StatefulSets and DaemonSets). */
export const CONTROLLER_REVISION_HASH_LABEL = "controller-revision-hash";

export type RetentionPolicyType = "Retain" | "Delete";

export interface PersistentVolumeClaimTemplate {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaimTemplate[];
  serviceName?: string;
  podManagementPolicy?: "OrderedReady" | "Parallel";
  updateStrategy?: {
    type?: "RollingUpdate" | "OnDelete";
    rollingUpdate?: { partition?: number; maxUnavailable?: number | string };
  };
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: {
    whenDeleted?: RetentionPolicyType;
    whenScaled?: RetentionPolicyType;
  };
  ordinals?: { start?: number };
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  availableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
}

export interface StatefulSet extends KubeObject {
  spec: StatefulSetSpec;
  status?: StatefulSetStatus;
}
