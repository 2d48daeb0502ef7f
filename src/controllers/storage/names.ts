/**
 * Names the storage controllers own — Hearth's provisioner, its pool label and
 * finalizer — and small helpers to read objects that may be gone.
 */

import type { KubeObject } from "../../api/index.js";
import { ANN_PROVISIONED_BY } from "../../api/index.js";
import { getOptional, type Reader } from "../../client/index.js";

/** The provisioner of the default class: directories in `DIR/volumes`. */
export const LOCAL_PATH_PROVISIONER = "hearth.io/local-path";
/** The default StorageClass `hearth up` creates. */
export const DEFAULT_CLASS_NAME = "local-path";
/** On every volume the pool provisioned, for `kubectl get pv -l hearth.io/volume-pool`. */
export const POOL_LABEL = "hearth.io/volume-pool";
/**
 * On every volume the pool provisioned, held while its directory may exist: the
 * PV object is never removed before the directory is (kube's external
 * provisioners keep `external-provisioner.volume.kubernetes.io/finalizer` alike).
 */
export const VOLUME_DIRECTORY_FINALIZER = "hearth.io/volume-directory";

export const PVC = { apiVersion: "v1", kind: "PersistentVolumeClaim" } as const;
export const PV = { apiVersion: "v1", kind: "PersistentVolume" } as const;
export const STORAGE_CLASS = { apiVersion: "storage.k8s.io/v1", kind: "StorageClass" } as const;

/** The object, or undefined when it does not exist. */
export async function getOrUndefined<T extends KubeObject>(
  client: Reader,
  type: { apiVersion: string; kind: string },
  name: string,
  namespace?: string,
): Promise<T | undefined> {
  return getOptional<T>(client, { apiVersion: type.apiVersion, kind: type.kind, name, namespace });
}

/** `namespace/name` → its parts. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf("/");
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}

/** A copy of `obj` with `finalizer` added or removed. */
export function withFinalizer<T extends KubeObject>(obj: T, finalizer: string, on: boolean): T {
  const rest = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  return { ...obj, metadata: { ...obj.metadata, finalizers: on ? [...rest, finalizer] : rest } };
}

/** True when the volume was provisioned by Hearth's pool. */
export function isPoolVolume(pv: KubeObject): boolean {
  return pv.metadata.annotations?.[ANN_PROVISIONED_BY] === LOCAL_PATH_PROVISIONER;
}
