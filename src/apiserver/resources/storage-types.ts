/**
 * The storage kinds: storage.k8s.io/v1 StorageClass, v1 PersistentVolume and
 * PersistentVolumeClaim, with kubectl's columns (a default class shows
 * `(default)` after its name, printed by the server as kube-apiserver does), the
 * defaults kube's API sets (reclaim policies, binding mode, volume mode, phase
 * Pending), and the protection finalizers kube's StorageObjectInUseProtection
 * admission puts on every new claim and volume. Quantities are checked here and
 * kept as strings.
 */

import type { KubeObject } from "../../api/index.js";
import {
  accessModesString,
  BadRequestError,
  claimClassName,
  isDefaultClass,
  isQuantity,
  type PersistentVolume,
  type PersistentVolumeClaim,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  rfc3339,
  type StorageClass,
  volumeClassName,
} from "../../api/index.js";

import {
  persistentVolumeClaimSchema,
  persistentVolumeSchema,
  storageClassSchema,
} from "../schemas/index.js";
import { builtinType, type TableColumn } from "./resource-type.js";
import {
  validatePersistentVolume,
  validatePersistentVolumeClaim,
  validateStorageClass,
} from "./storage-validation.js";
import { ageColumn } from "./table.js";

/** Storage kinds are ordinary built-in kinds. */
const storageType = builtinType;

const column = (
  name: string,
  cell: TableColumn["cell"],
  extra: Partial<TableColumn> = {},
): TableColumn => ({ name, type: "string", cell, ...extra });
const nameColumn = (cell: TableColumn["cell"]) => column("Name", cell, { format: "name" });

/** kube decodes quantities strictly: a malformed one is a 400 naming the kind. */
function checkQuantities(kind: string, maps: (Record<string, unknown> | undefined)[]): void {
  for (const map of maps)
    for (const [key, value] of Object.entries(map ?? {})) {
      if (!isQuantity(value))
        throw new BadRequestError(
          `${kind} in version "v1" cannot be handled as a ${kind}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
        );
      map![key] = String(value);
    }
}

function addFinalizer(obj: KubeObject, finalizer: string): void {
  const finalizers = obj.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) obj.metadata.finalizers = [...finalizers, finalizer];
}

function defaultClass(obj: KubeObject): void {
  const sc = obj as StorageClass;
  sc.reclaimPolicy ??= "Delete";
  sc.volumeBindingMode ??= "Immediate";
}

export const storageClassType = storageType({
  group: "storage.k8s.io",
  version: "v1",
  kind: "StorageClass",
  plural: "storageclasses",
  singular: "storageclass",
  namespaced: false,
  shortNames: ["sc"],
  schema: storageClassSchema,
  ownColumns: true,
  columns: [
    nameColumn((o) => `${o.metadata.name ?? ""}${isDefaultClass(o) ? " (default)" : ""}`),
    column("Provisioner", (o) => (o as StorageClass).provisioner ?? ""),
    column("ReclaimPolicy", (o) => (o as StorageClass).reclaimPolicy ?? "Delete"),
    column("VolumeBindingMode", (o) => (o as StorageClass).volumeBindingMode ?? "Immediate"),
    column("AllowVolumeExpansion", (o) => (o as StorageClass).allowVolumeExpansion ?? false),
    ageColumn,
  ],
  validate: validateStorageClass,
  prepareForCreate: defaultClass,
  prepareForUpdate: defaultClass,
});

function defaultVolume(obj: KubeObject): PersistentVolume {
  const pv = obj as PersistentVolume;
  pv.spec ??= {};
  pv.spec.persistentVolumeReclaimPolicy ??= "Retain";
  pv.spec.volumeMode ??= "Filesystem";
  checkQuantities("PersistentVolume", [pv.spec.capacity]);
  return pv;
}

const phaseOrTerminating = (o: KubeObject, phase: string | undefined) =>
  o.metadata.deletionTimestamp ? "Terminating" : (phase ?? "");

export const persistentVolumeType = storageType({
  group: "",
  version: "v1",
  kind: "PersistentVolume",
  plural: "persistentvolumes",
  singular: "persistentvolume",
  returnDeletedObject: true,
  namespaced: false,
  shortNames: ["pv"],
  status: true,
  schema: persistentVolumeSchema,
  ownColumns: true,
  columns: [
    nameColumn((o) => o.metadata.name ?? ""),
    column("Capacity", (o) => (o as PersistentVolume).spec?.capacity?.storage ?? ""),
    column("Access Modes", (o) => accessModesString((o as PersistentVolume).spec?.accessModes)),
    column(
      "Reclaim Policy",
      (o) => (o as PersistentVolume).spec?.persistentVolumeReclaimPolicy ?? "",
    ),
    column("Status", (o) => phaseOrTerminating(o, (o as PersistentVolume).status?.phase)),
    column("Claim", (o) => {
      const ref = (o as PersistentVolume).spec?.claimRef;
      return ref ? `${ref.namespace ?? ""}/${ref.name ?? ""}` : "";
    }),
    column("StorageClass", (o) => volumeClassName(o as PersistentVolume)),
    column("VolumeAttributesClass", (o) => {
      const name = (o as PersistentVolume).spec?.volumeAttributesClassName;
      return typeof name === "string" && name !== "" ? name : "<unset>";
    }),
    column("Reason", (o) => (o as PersistentVolume).status?.reason ?? ""),
    ageColumn,
    column("VolumeMode", (o) => (o as PersistentVolume).spec?.volumeMode ?? "<unset>", {
      priority: 1,
    }),
  ],
  validate: validatePersistentVolume,
  prepareForCreate(obj) {
    const pv = defaultVolume(obj);
    pv.status = { phase: "Pending", lastPhaseTransitionTime: rfc3339() };
    addFinalizer(pv, PV_PROTECTION_FINALIZER);
  },
  prepareForUpdate(obj, old) {
    const pv = defaultVolume(obj);
    const was = (old as PersistentVolume).status?.phase;
    if (pv.status?.phase !== was && pv.status) pv.status.lastPhaseTransitionTime = rfc3339();
  },
});

function defaultClaim(obj: KubeObject): PersistentVolumeClaim {
  const pvc = obj as PersistentVolumeClaim;
  pvc.spec ??= {};
  pvc.spec.volumeMode ??= "Filesystem";
  checkQuantities("PersistentVolumeClaim", [
    pvc.spec.resources?.requests,
    pvc.spec.resources?.limits,
    pvc.status?.capacity,
  ]);
  return pvc;
}

export const persistentVolumeClaimType = storageType({
  group: "",
  version: "v1",
  kind: "PersistentVolumeClaim",
  plural: "persistentvolumeclaims",
  singular: "persistentvolumeclaim",
  returnDeletedObject: true,
  shortNames: ["pvc"],
  status: true,
  schema: persistentVolumeClaimSchema,
  ownColumns: true,
  columns: [
    nameColumn((o) => o.metadata.name ?? ""),
    column("Status", (o) => phaseOrTerminating(o, (o as PersistentVolumeClaim).status?.phase)),
    column("Volume", (o) => (o as PersistentVolumeClaim).spec?.volumeName ?? ""),
    column("Capacity", (o) => {
      const pvc = o as PersistentVolumeClaim;
      return pvc.spec?.volumeName ? (pvc.status?.capacity?.storage ?? "") : "";
    }),
    column("Access Modes", (o) => {
      const pvc = o as PersistentVolumeClaim;
      return pvc.spec?.volumeName ? accessModesString(pvc.status?.accessModes) : "";
    }),
    column("StorageClass", (o) => claimClassName(o as PersistentVolumeClaim)),
    column("VolumeAttributesClass", (o) => {
      const name = (o as PersistentVolumeClaim).spec?.volumeAttributesClassName;
      return typeof name === "string" && name !== "" ? name : "<unset>";
    }),
    ageColumn,
    column("VolumeMode", (o) => (o as PersistentVolumeClaim).spec?.volumeMode ?? "<unset>", {
      priority: 1,
    }),
  ],
  validate: validatePersistentVolumeClaim,
  prepareForCreate(obj) {
    const pvc = defaultClaim(obj);
    pvc.status = { phase: "Pending" };
    addFinalizer(pvc, PVC_PROTECTION_FINALIZER);
  },
  prepareForUpdate: (obj) => void defaultClaim(obj),
});

/** The storage kinds, in discovery order. */
export const STORAGE_TYPES = [storageClassType, persistentVolumeType, persistentVolumeClaimType];
