/**
 * Typed views of the storage kinds (storage.k8s.io/v1 StorageClass, v1
 * PersistentVolume and PersistentVolumeClaim) and the names kube gives their
 * annotations and finalizers. Shared by the apiserver (defaults, admission,
 * tables), the storage controllers and the node agent, which mounts a claim by
 * reading its `spec.volumeName` and then that volume's `spec.hostPath.path`.
 */
import type { KubeObject } from "./types.js";

export const PVC_PROTECTION_FINALIZER = "kubernetes.io/pvc-protection";
export const PV_PROTECTION_FINALIZER = "kubernetes.io/pv-protection";
export const DEFAULT_CLASS_ANNOTATION = "storageclass.kubernetes.io/is-default-class";
export const BETA_DEFAULT_CLASS_ANNOTATION = "storageclass.beta.kubernetes.io/is-default-class";
/** The pre-GA way to name a claim's or volume's class; still read first, as kube does. */
export const BETA_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";
/** On a claim: the binding finished once (a later missing volume means Lost). */
export const ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
/** On a claim or volume: the controller, not the user, made the binding. */
export const ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
/** On a volume: the provisioner that created it. */
export const ANN_PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
/** On a claim: the provisioner expected to create its volume. */
export const ANN_STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner";
export const ANN_BETA_STORAGE_PROVISIONER = "volume.beta.kubernetes.io/storage-provisioner";
/** On a claim of a WaitForFirstConsumer class: the node the scheduler chose. */
export const ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node";

export type AccessMode = "ReadWriteOnce" | "ReadOnlyMany" | "ReadWriteMany" | "ReadWriteOncePod";
export const ACCESS_MODES: readonly AccessMode[] = [
  "ReadWriteOnce",
  "ReadOnlyMany",
  "ReadWriteMany",
  "ReadWriteOncePod",
];
export type ReclaimPolicy = "Retain" | "Delete" | "Recycle";
export type VolumeBindingMode = "Immediate" | "WaitForFirstConsumer";

export interface StorageClass extends KubeObject {
  provisioner?: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: ReclaimPolicy;
  volumeBindingMode?: VolumeBindingMode;
  allowVolumeExpansion?: boolean;
  mountOptions?: string[];
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface PersistentVolumeSpec {
  capacity?: Record<string, string>;
  accessModes?: AccessMode[];
  persistentVolumeReclaimPolicy?: ReclaimPolicy;
  storageClassName?: string;
  claimRef?: ObjectReference;
  volumeMode?: string;
  hostPath?: { path: string; type?: string };
  local?: { path: string; fsType?: string };
  nodeAffinity?: {
    required?: { nodeSelectorTerms: { matchExpressions?: NodeSelectorRequirement[] }[] };
  };
  mountOptions?: string[];
  [source: string]: unknown;
}

export type VolumePhase = "Pending" | "Available" | "Bound" | "Released" | "Failed";

export interface PersistentVolume extends KubeObject {
  spec?: PersistentVolumeSpec;
  status?: {
    phase?: VolumePhase;
    message?: string;
    reason?: string;
    lastPhaseTransitionTime?: string;
  };
}

export interface PersistentVolumeClaimSpec {
  accessModes?: AccessMode[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  storageClassName?: string;
  volumeName?: string;
  volumeMode?: string;
  selector?: {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  };
  [field: string]: unknown;
}

export type ClaimPhase = "Pending" | "Bound" | "Lost";

export interface PersistentVolumeClaim extends KubeObject {
  spec?: PersistentVolumeClaimSpec;
  status?: {
    phase?: ClaimPhase;
    accessModes?: AccessMode[];
    capacity?: Record<string, string>;
    conditions?: unknown[];
    [field: string]: unknown;
  };
}

/** True when the class carries kube's default-class annotation (GA or beta) set to "true". */
export function isDefaultClass(sc: KubeObject): boolean {
  const a = sc.metadata.annotations ?? {};
  return a[DEFAULT_CLASS_ANNOTATION] === "true" || a[BETA_DEFAULT_CLASS_ANNOTATION] === "true";
}

/** kube's choice among several default classes: the newest, then the first by name. */
export function chooseDefaultClass<T extends KubeObject>(classes: T[]): T | undefined {
  const defaults = classes.filter((c) => isDefaultClass(c) && !c.metadata.deletionTimestamp);
  defaults.sort((a, b) => {
    const ta = Date.parse(a.metadata.creationTimestamp ?? "") || 0;
    const tb = Date.parse(b.metadata.creationTimestamp ?? "") || 0;
    if (ta !== tb) return tb - ta;
    return (a.metadata.name ?? "").localeCompare(b.metadata.name ?? "");
  });
  return defaults[0];
}

/** A claim's class: the beta annotation first, then `spec.storageClassName`; "" for none. */
export function claimClassName(pvc: PersistentVolumeClaim): string {
  const beta = pvc.metadata.annotations?.[BETA_CLASS_ANNOTATION];
  if (beta !== undefined) return beta;
  return pvc.spec?.storageClassName ?? "";
}

/** A volume's class, read the same way as a claim's. */
export function volumeClassName(pv: PersistentVolume): string {
  const beta = pv.metadata.annotations?.[BETA_CLASS_ANNOTATION];
  if (beta !== undefined) return beta;
  return pv.spec?.storageClassName ?? "";
}

/** `RWO,ROX,RWX,RWOP`, in kube's fixed order, as kubectl's tables show them. */
export function accessModesString(modes: readonly string[] | undefined): string {
  const short: Record<AccessMode, string> = {
    ReadWriteOnce: "RWO",
    ReadOnlyMany: "ROX",
    ReadWriteMany: "RWX",
    ReadWriteOncePod: "RWOP",
  };
  return ACCESS_MODES.filter((m) => modes?.includes(m))
    .map((m) => short[m])
    .join(",");
}

/** The claim a volume is bound to (`namespace/name`), or undefined. */
export function claimKeyOf(pv: PersistentVolume): string | undefined {
  const ref = pv.spec?.claimRef;
  return ref?.name ? `${ref.namespace ?? ""}/${ref.name}` : undefined;
}
