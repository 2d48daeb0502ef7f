/**
 * What the StatefulSet controller reads off its pods and claims and writes into
 * new ones, as kube's stateful_set_utils.go does: a pod's ordinal from its name
 * `<set>-<ordinal>`; its identity (name, the pod-name and pod-index labels,
 * hostname = pod name, subdomain = serviceName) and storage (one volume per
 * claim template, naming the claim `<template>-<set>-<ordinal>`); the claims
 * themselves; health (running and Ready, available after minReadySeconds);
 * and a new pod made from the template of a revision.
 */
import type {
  KubeObject,
  PersistentVolumeClaimTemplate,
  Pod,
  PodTemplateSpec,
  StatefulSet,
} from "../../api/index.js";
import {
  CONTROLLER_REVISION_HASH_LABEL,
  POD_INDEX_LABEL,
  STATEFULSET_POD_NAME_LABEL,
} from "../../api/index.js";
import { newControllerRef } from "../controller-ref.js";

export type Claim = KubeObject & { spec?: Record<string, unknown> };

/** The ordinal in a pod's name when it is `<set>-<n>`, else undefined. */
export function ordinalOf(set: StatefulSet, pod: Pod): number | undefined {
  const prefix = `${set.metadata.name}-`;
  const name = pod.metadata.name ?? "";
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return /^(0|[1-9][0-9]*)$/.test(rest) ? Number(rest) : undefined;
}

export const podName = (set: StatefulSet, ordinal: number) => `${set.metadata.name}-${ordinal}`;

export const claimName = (
  template: PersistentVolumeClaimTemplate,
  set: StatefulSet,
  ordinal: number,
) => `${template.metadata?.name}-${set.metadata.name}-${ordinal}`;

export const startOrdinal = (set: StatefulSet) => set.spec.ordinals?.start ?? 0;

/** isMemberOf + identityMatches: the labels and DNS names the pod's ordinal gives it. */
export function identityMatches(set: StatefulSet, pod: Pod, ordinal: number): boolean {
  const labels = pod.metadata.labels ?? {};
  return (
    pod.metadata.name === podName(set, ordinal) &&
    labels[STATEFULSET_POD_NAME_LABEL] === pod.metadata.name &&
    labels[POD_INDEX_LABEL] === String(ordinal) &&
    pod.spec?.hostname === pod.metadata.name &&
    (pod.spec?.subdomain ?? "") === (set.spec.serviceName ?? "")
  );
}

/** updateIdentity: sets the labels, hostname and subdomain of the ordinal. */
export function applyIdentity(set: StatefulSet, pod: Pod, ordinal: number): void {
  pod.metadata.name = podName(set, ordinal);
  pod.metadata.namespace = set.metadata.namespace;
  pod.metadata.labels = {
    ...(pod.metadata.labels ?? {}),
    [STATEFULSET_POD_NAME_LABEL]: pod.metadata.name,
    [POD_INDEX_LABEL]: String(ordinal),
  };
  pod.spec.hostname = pod.metadata.name;
  if (set.spec.serviceName) pod.spec.subdomain = set.spec.serviceName;
  else delete pod.spec.subdomain;
}

/** The claims of an ordinal, one per claim template, labelled by the set's selector. */
export function claimsFor(set: StatefulSet, ordinal: number): Claim[] {
  return (set.spec.volumeClaimTemplates ?? []).map((t) => ({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name: claimName(t, set, ordinal),
      namespace: set.metadata.namespace,
      labels: { ...(t.metadata?.labels ?? {}), ...(set.spec.selector?.matchLabels ?? {}) },
      ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
    },
    spec: structuredClone(t.spec ?? {}),
  }));
}

/** storageMatches: every claim template is mounted through the ordinal's claim. */
export function storageMatches(set: StatefulSet, pod: Pod, ordinal: number): boolean {
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  return (set.spec.volumeClaimTemplates ?? []).every(
    (t) =>
      volumes.get(t.metadata?.name ?? "")?.persistentVolumeClaim?.claimName ===
      claimName(t, set, ordinal),
  );
}

/** updateStorage: the claim volumes replace template volumes of the same name. */
function applyStorage(set: StatefulSet, pod: Pod, ordinal: number): void {
  const templates = set.spec.volumeClaimTemplates ?? [];
  if (templates.length === 0) return;
  const claimVolumes = templates.map((t) => ({
    name: t.metadata?.name ?? "",
    persistentVolumeClaim: { claimName: claimName(t, set, ordinal) },
  }));
  const names = new Set(claimVolumes.map((v) => v.name));
  pod.spec.volumes = [
    ...claimVolumes,
    ...(pod.spec.volumes ?? []).filter((v) => !names.has(v.name)),
  ];
}

/** newVersionedStatefulSetPod: the ordinal's pod from a revision's template. */
export function newPod(
  set: StatefulSet,
  template: PodTemplateSpec,
  revisionName: string,
  ordinal: number,
): Pod {
  const meta = template.metadata ?? {};
  const pod: Pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      labels: { ...(meta.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: revisionName },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ownerReferences: [newControllerRef(set)],
    },
    spec: structuredClone(template.spec ?? {}) as unknown as Pod["spec"],
  };
  applyIdentity(set, pod, ordinal);
  applyStorage(set, pod, ordinal);
  return pod;
}

export const revisionOf = (pod: Pod) => pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
export const isCreated = (pod: Pod) => (pod.status?.phase ?? "") !== "";
export const isTerminating = (pod: Pod) => !!pod.metadata.deletionTimestamp;
export const isFinished = (pod: Pod) =>
  pod.status?.phase === "Failed" || pod.status?.phase === "Succeeded";

function readyCondition(pod: Pod) {
  return (pod.status?.conditions ?? []).find((c) => c.type === "Ready");
}

/** isRunningAndReady. */
export function isRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === "Running" && readyCondition(pod)?.status === "True";
}

/** How long until the pod is available (0: available now; undefined: not ready). */
export function untilAvailableMs(
  pod: Pod,
  minReadySeconds: number,
  now: number,
): number | undefined {
  if (!isRunningAndReady(pod)) return undefined;
  if (minReadySeconds <= 0) return 0;
  const since = Date.parse(readyCondition(pod)?.lastTransitionTime ?? "");
  if (!since) return 0;
  return Math.max(0, since + minReadySeconds * 1000 - now);
}

/** isHealthy for the monotonic (OrderedReady) walk: running, ready and not being deleted. */
export const isHealthy = (pod: Pod) => isRunningAndReady(pod) && !isTerminating(pod);
