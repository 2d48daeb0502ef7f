/**
 * ObjectMeta validation as apimachinery's `ValidateObjectMeta`: label keys and
 * values, annotation keys and total size, finalizer names, owner references, and
 * the finalizer rule of objects being deleted.
 */
import { type FieldError, forbiddenValue, invalidValue, requiredValue } from "../../api/errors.js";
import { ANNOTATIONS_MAX_BYTES, labelValue, qualifiedName } from "../../api/names.js";
import type { KubeObject } from "../../api/types.js";

export function validateMetadata(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const meta = obj.metadata;
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(meta.labels ?? {})) {
    for (const why of qualifiedName(key)) errors.push(invalidValue("metadata.labels", key, why));
    if (typeof value !== "string")
      errors.push(invalidValue(`metadata.labels`, value, "must be a string"));
    else
      for (const why of labelValue(value)) errors.push(invalidValue("metadata.labels", value, why));
  }
  let annotationBytes = 0;
  for (const [key, value] of Object.entries(meta.annotations ?? {})) {
    for (const why of qualifiedName(key.toLowerCase()))
      errors.push(invalidValue("metadata.annotations", key, why));
    annotationBytes += key.length + (typeof value === "string" ? Buffer.byteLength(value) : 0);
  }
  if (annotationBytes > ANNOTATIONS_MAX_BYTES) {
    errors.push({
      reason: "FieldValueTooLong",
      field: "metadata.annotations",
      detail: `Too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes`,
    });
  }
  (meta.finalizers ?? []).forEach((f, i) => {
    for (const why of qualifiedName(f))
      errors.push(invalidValue(`metadata.finalizers[${i}]`, f, why));
  });
  let controllers = 0;
  (meta.ownerReferences ?? []).forEach((ref, i) => {
    const at = `metadata.ownerReferences[${i}]`;
    if (!ref.apiVersion)
      errors.push(
        invalidValue(`${at}.apiVersion`, ref.apiVersion ?? "", "version must not be empty"),
      );
    if (!ref.kind)
      errors.push(invalidValue(`${at}.kind`, ref.kind ?? "", "kind must not be empty"));
    if (!ref.name)
      errors.push(invalidValue(`${at}.name`, ref.name ?? "", "name must not be empty"));
    if (!ref.uid) errors.push(invalidValue(`${at}.uid`, ref.uid ?? "", "uid must not be empty"));
    if (ref.controller) controllers++;
  });
  if (controllers > 1) {
    errors.push(
      invalidValue(
        "metadata.ownerReferences",
        "",
        "Only one reference can have Controller set to true",
      ),
    );
  }
  if (meta.generateName !== undefined && typeof meta.generateName !== "string") {
    errors.push(requiredValue("metadata.generateName"));
  }
  if (old && meta.namespace !== old.metadata.namespace) {
    errors.push(forbiddenValue("metadata.namespace", "field is immutable"));
  }
  errors.push(...finalizerErrors(obj, old));
  return errors;
}

/** The finalizer rule of objects being deleted: none may be added. */
export function finalizerErrors(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  if (!old?.metadata.deletionTimestamp) return [];
  const before = new Set(old.metadata.finalizers ?? []);
  const added = (obj.metadata.finalizers ?? []).filter((f) => !before.has(f));
  if (added.length === 0) return [];
  return [
    forbiddenValue(
      "metadata.finalizers",
      `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(", ")}}`,
    ),
  ];
}
