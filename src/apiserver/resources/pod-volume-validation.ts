/**
 * kube-apiserver's checks on a Pod's volumes (from `ValidateVolumes`): names
 * unique DNS labels, exactly one source, the referenced ConfigMap/Secret/claim
 * named, file modes in range, and every file a ConfigMap, Secret or downwardAPI
 * volume projects at a path that stays inside the volume — relative, without a
 * `..` element, not starting with `..` (kube's ValidateLocalNonReservedPath),
 * at most 4096 bytes (the kernel's PATH_MAX). The node agent writes these
 * paths as root, so this is what keeps a pod's files inside its volume.
 */

import type { Volume } from "../../api/index.js";
import {
  dns1123Label,
  type FieldError,
  forbiddenValue,
  invalidValue,
  requiredValue,
} from "../../api/index.js";

const VOLUME_SOURCES = [
  "emptyDir",
  "secret",
  "configMap",
  "persistentVolumeClaim",
  "downwardAPI",
  "hostPath",
] as const;

export const MAX_VOLUME_PATH = 4096;
const FILE_MODE_MESSAGE = "must be a number between 0 and 0777 (octal), both inclusive";

const duplicate = (field: string, value: unknown): FieldError => ({
  reason: "FieldValueDuplicate",
  field,
  detail: `Duplicate value: ${JSON.stringify(value)}`,
});

/**
 * kube's ValidateLocalNonReservedPath: relative, no `..` element, not starting
 * with `..`; plus a length bound. Empty is the caller's Required error.
 */
export function volumePathErrors(field: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (path.startsWith("/")) errors.push(invalidValue(field, path, "must be a relative path"));
  if (path.split("/").includes(".."))
    errors.push(invalidValue(field, path, "must not contain '..'"));
  else if (path.startsWith(".."))
    errors.push(invalidValue(field, path, "must not start with '..'"));
  if (Buffer.byteLength(path) > MAX_VOLUME_PATH)
    errors.push({
      reason: "FieldValueTooLong",
      field,
      detail: `Too long: may not be more than ${MAX_VOLUME_PATH} bytes`,
    });
  return errors;
}

function modeErrors(field: string, mode: number | undefined): FieldError[] {
  return mode !== undefined && !(mode >= 0 && mode <= 0o777)
    ? [invalidValue(field, mode, FILE_MODE_MESSAGE)]
    : [];
}

function keyToPathErrors(
  items: { key: string; path: string; mode?: number }[] | undefined,
  at: string,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [i, item] of (items ?? []).entries()) {
    const it = `${at}.items[${i}]`;
    if (!item.key) errors.push(requiredValue(`${it}.key`));
    if (!item.path) errors.push(requiredValue(`${it}.path`));
    else errors.push(...volumePathErrors(`${it}.path`, item.path));
    errors.push(...modeErrors(`${it}.mode`, item.mode));
  }
  return errors;
}

function sourceErrors(v: Volume, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (v.persistentVolumeClaim && !v.persistentVolumeClaim.claimName)
    errors.push(requiredValue(`${at}.persistentVolumeClaim.claimName`));
  if (v.secret) {
    if (!v.secret.secretName) errors.push(requiredValue(`${at}.secret.secretName`));
    errors.push(
      ...modeErrors(`${at}.secret.defaultMode`, v.secret.defaultMode),
      ...keyToPathErrors(v.secret.items, `${at}.secret`),
    );
  }
  if (v.configMap) {
    if (!v.configMap.name) errors.push(requiredValue(`${at}.configMap.name`));
    errors.push(
      ...modeErrors(`${at}.configMap.defaultMode`, v.configMap.defaultMode),
      ...keyToPathErrors(v.configMap.items, `${at}.configMap`),
    );
  }
  if (v.downwardAPI) {
    errors.push(...modeErrors(`${at}.downwardAPI.defaultMode`, v.downwardAPI.defaultMode));
    for (const [i, f] of (v.downwardAPI.items ?? []).entries()) {
      const it = `${at}.downwardAPI.items[${i}]`;
      if (!f.path) errors.push(requiredValue(`${it}.path`));
      else errors.push(...volumePathErrors(`${it}.path`, f.path));
      if (f.fieldRef && f.resourceFieldRef)
        errors.push(
          invalidValue(
            it,
            "resource",
            "fieldRef and resourceFieldRef can not be specified simultaneously",
          ),
        );
      else if (!f.fieldRef && !f.resourceFieldRef)
        errors.push(requiredValue(it, "one of fieldRef and resourceFieldRef is required"));
      errors.push(...modeErrors(`${it}.mode`, f.mode));
    }
  }
  if (v.hostPath) {
    if (!v.hostPath.path) errors.push(requiredValue(`${at}.hostPath.path`));
    else if (v.hostPath.path.split("/").includes(".."))
      errors.push(invalidValue(`${at}.hostPath.path`, v.hostPath.path, "must not contain '..'"));
  }
  return errors;
}

export function volumeErrors(volumes: Volume[]): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, v] of volumes.entries()) {
    const at = `spec.volumes[${i}]`;
    if (!v.name) errors.push(requiredValue(`${at}.name`));
    else
      for (const why of dns1123Label(v.name)) errors.push(invalidValue(`${at}.name`, v.name, why));
    if (v.name && names.has(v.name)) errors.push(duplicate(`${at}.name`, v.name));
    names.add(v.name);
    const sources = VOLUME_SOURCES.filter((s) => v[s] !== undefined);
    if (sources.length === 0) errors.push(requiredValue(at, "must specify a volume type"));
    if (sources.length > 1)
      errors.push(forbiddenValue(`${at}.${sources[1]}`, "may not specify more than 1 volume type"));
    errors.push(...sourceErrors(v, at));
  }
  return errors;
}
