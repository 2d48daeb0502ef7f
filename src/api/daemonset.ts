/**
 * apps/v1 DaemonSet and ControllerRevision as code reads them
 * (k8s.io/api/apps/v1). Shared by the apiserver and the controllers.
 */
import type { LabelSelector, PodTemplateSpec } from "./batch.js";
import type { KubeObject } from "./types.js";

export interface DaemonSetSpec {
  selector?: LabelSelector;
  template: PodTemplateSpec;
  updateStrategy?: {
    type?: "RollingUpdate" | "OnDelete";
    rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string };
  };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

export interface DaemonSetStatus {
  currentNumberScheduled?: number;
  numberMisscheduled?: number;
  desiredNumberScheduled?: number;
  numberReady?: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
}

export interface DaemonSet extends KubeObject {
  spec: DaemonSetSpec;
  status?: DaemonSetStatus;
}

/** A snapshot of a controller's template: `data` is the patch, `revision` its number. */
export interface ControllerRevision extends KubeObject {
  data?: unknown;
  revision: number;
}
