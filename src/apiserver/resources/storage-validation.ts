/**
 * Validation of the storage kinds as kube's `ValidateStorageClass`,
 * `ValidatePersistentVolume` and `ValidatePersistentVolumeClaim` (and their
 * `…Update` rules): required fields, supported values, one volume source, and
 * what may not change once created — a class's provisioner, parameters and
 * policies, a volume's source, a claim's spec except `volumeName` (set once by
 * binding), a nil `storageClassName` (set once) and a growing storage request of
 * a bound claim.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/index.js";
import {
  ACCESS_MODES,
  compareQuantities,
  dns1123Subdomain,
  type FieldError,
  forbiddenValue,
  invalidValue,
  isQuantity,
  type PersistentVolume,
  type PersistentVolumeClaim,
  qualifiedName,
  quantityValue,
  requiredValue,
  type StorageClass,
} from "../../api/index.js";
import { VOLUME_SOURCES } from "../schemas/volume-common.js";

function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  return {
    reason: "FieldValueNotSupported",
    field,
    detail: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}`,
  };
}

function immutable(field: string, value: unknown): FieldError {
  return invalidValue(field, value, "field is immutable");
}

function checkEnum(errors: FieldError[], field: string, value: unknown, ok: readonly string[]) {
  if (value !== undefined && !ok.includes(value as string))
    errors.push(notSupported(field, value, ok));
}

function checkAccessModes(errors: FieldError[], field: string, modes: unknown[] | undefined) {
  for (const m of modes ?? []) checkEnum(errors, field, m, ACCESS_MODES);
  if ((modes ?? []).includes("ReadWriteOncePod") && (modes ?? []).length > 1)
    errors.push(forbiddenValue(field, "may not use ReadWriteOncePod with other access modes"));
}

function checkClassName(errors: FieldError[], field: string, name: string | undefined) {
  if (name) for (const why of dns1123Subdomain(name)) errors.push(invalidValue(field, name, why));
}

export function validateStorageClass(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const sc = obj as StorageClass;
  const errors: FieldError[] = [];
  if (!sc.provisioner) errors.push(requiredValue("provisioner"));
  else
    for (const why of qualifiedName(sc.provisioner))
      errors.push(invalidValue("provisioner", sc.provisioner, why));
  checkEnum(errors, "reclaimPolicy", sc.reclaimPolicy, ["Delete", "Retain"]);
  checkEnum(errors, "volumeBindingMode", sc.volumeBindingMode, [
    "Immediate",
    "WaitForFirstConsumer",
  ]);
  if (!old) return errors;
  const was = old as StorageClass;
  if (!isDeepStrictEqual(sc.parameters ?? {}, was.parameters ?? {}))
    errors.push(forbiddenValue("parameters", "updates to parameters are forbidden."));
  if (sc.provisioner !== was.provisioner)
    errors.push(forbiddenValue("provisioner", "updates to provisioner are forbidden."));
  if (sc.reclaimPolicy !== was.reclaimPolicy)
    errors.push(forbiddenValue("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
  if (sc.volumeBindingMode !== was.volumeBindingMode)
    errors.push(immutable("volumeBindingMode", sc.volumeBindingMode));
  return errors;
}

export function validatePersistentVolume(
  obj: KubeObject,
  old: KubeObject | undefined,
): FieldError[] {
  const spec = (obj as PersistentVolume).spec ?? {};
  const errors: FieldError[] = [];
  const capacity = spec.capacity ?? {};
  if (Object.keys(capacity).length === 0) errors.push(requiredValue("spec.capacity"));
  else if (capacity.storage === undefined || Object.keys(capacity).length > 1)
    errors.push(notSupported("spec.capacity", Object.keys(capacity), ["storage"]));
  else if (isQuantity(capacity.storage) && quantityValue(capacity.storage) < 0n)
    errors.push(
      invalidValue(
        "spec.capacity[storage]",
        capacity.storage,
        "must be greater than or equal to 0",
      ),
    );
  if ((spec.accessModes ?? []).length === 0) errors.push(requiredValue("spec.accessModes"));
  checkAccessModes(errors, "spec.accessModes", spec.accessModes);
  const sources = VOLUME_SOURCES.filter((s) => spec[s] !== undefined);
  if (sources.length === 0) errors.push(requiredValue("spec", "must specify a volume type"));
  for (const extra of sources.slice(1))
    errors.push(forbiddenValue(`spec.${extra}`, "may not specify more than 1 volume type"));
  if (spec.hostPath && !spec.hostPath.path) errors.push(requiredValue("spec.hostPath.path"));
  if (spec.local && !spec.local.path) errors.push(requiredValue("spec.local.path"));
  if (spec.local && !spec.nodeAffinity)
    errors.push(requiredValue("spec.nodeAffinity", "Local volume requires node affinity"));
  checkEnum(errors, "spec.persistentVolumeReclaimPolicy", spec.persistentVolumeReclaimPolicy, [
    "Delete",
    "Recycle",
    "Retain",
  ]);
  checkEnum(errors, "spec.volumeMode", spec.volumeMode, ["Block", "Filesystem"]);
  checkClassName(errors, "spec.storageClassName", spec.storageClassName);
  if (spec.claimRef && !spec.claimRef.name) errors.push(requiredValue("spec.claimRef.name"));
  if (!old) return errors;
  const was = (old as PersistentVolume).spec ?? {};
  const source = (s: typeof spec) => Object.fromEntries(VOLUME_SOURCES.map((k) => [k, s[k]]));
  if (!isDeepStrictEqual(source(spec), source(was)))
    errors.push(
      forbiddenValue(
        "spec.persistentvolumesource",
        "spec.persistentvolumesource is forbidden to update",
      ),
    );
  if (spec.volumeMode !== was.volumeMode)
    errors.push(immutable("spec.volumeMode", spec.volumeMode));
  if (was.nodeAffinity && !isDeepStrictEqual(spec.nodeAffinity, was.nodeAffinity))
    errors.push(immutable("spec.nodeAffinity", spec.nodeAffinity));
  return errors;
}

const CLAIM_SPEC_MESSAGE =
  "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";

export function validatePersistentVolumeClaim(
  obj: KubeObject,
  old: KubeObject | undefined,
): FieldError[] {
  const pvc = obj as PersistentVolumeClaim;
  const spec = pvc.spec ?? {};
  const errors: FieldError[] = [];
  if ((spec.accessModes ?? []).length === 0)
    errors.push(requiredValue("spec.accessModes", "at least 1 access mode is required"));
  checkAccessModes(errors, "spec.accessModes", spec.accessModes);
  const storage = spec.resources?.requests?.storage;
  if (storage === undefined) errors.push(requiredValue("spec.resources[storage]"));
  else if (isQuantity(storage) && quantityValue(storage) <= 0n)
    errors.push(invalidValue("spec.resources[storage]", storage, "must be greater than zero"));
  checkEnum(errors, "spec.volumeMode", spec.volumeMode, ["Block", "Filesystem"]);
  checkClassName(errors, "spec.storageClassName", spec.storageClassName);
  if (!old) return errors;
  const was = (old as PersistentVolumeClaim).spec ?? {};
  // What may change: volumeName once, a nil class once, requests of a bound claim.
  const comparable = (s: typeof spec, base: typeof spec) => {
    const copy = structuredClone(s);
    if (!was.volumeName) copy.volumeName = undefined;
    if (was.storageClassName === undefined) copy.storageClassName = undefined;
    if (pvc.status?.phase === "Bound" && copy.resources?.requests)
      copy.resources.requests.storage = base.resources?.requests?.storage ?? "";
    copy.volumeAttributesClassName = undefined;
    return JSON.parse(JSON.stringify(copy)) as unknown;
  };
  const changed = Object.keys({ ...spec, ...was })
    .filter((k) => !isDeepStrictEqual(spec[k], was[k]))
    .sort();
  if (!isDeepStrictEqual(comparable(spec, was), comparable(was, was)))
    errors.push(forbiddenValue("spec", `${CLAIM_SPEC_MESSAGE} (changed: ${changed.join(", ")})`));
  const before = was.resources?.requests?.storage;
  if (storage !== undefined && before !== undefined && isQuantity(storage) && isQuantity(before))
    if (compareQuantities(storage, before) < 0)
      errors.push(
        forbiddenValue(
          "spec.resources.requests.storage",
          "field can not be less than previous value",
        ),
      );
  return errors;
}
