/**
 * ObjectMeta validation as apimachinery's `ValidateObjectMeta` and
 * `ValidateObjectMetaAccessorUpdate`: label keys and values, annotation keys and
 * total size, finalizer names, owner references, managedFields, the fields an
 * update may not change (uid, deletion fields), and the finalizer rule of objects
 * being deleted.
 */
import {
  ANNOTATIONS_MAX_BYTES,
  type FieldError,
  forbiddenValue,
  invalidValue,
  isObject,
  type KubeObject,
  labelValue,
  qualifiedName,
  requiredValue,
} from "../../api/index.js";
import { fieldManagerErrors, goStringSlice } from "./request-options.js";

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
  errors.push(...finalizerNameErrors(meta.finalizers ?? []));
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

/** apimachinery `ValidateFinalizers`: qualified names, not both orphan and foregroundDeletion. */
function finalizerNameErrors(finalizers: string[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const f of finalizers)
    for (const why of qualifiedName(f)) errors.push(invalidValue("metadata.finalizers", f, why));
  if (finalizers.includes("orphan") && finalizers.includes("foregroundDeletion"))
    errors.push({
      reason: "FieldValueInvalid",
      field: "metadata.finalizers",
      detail: `Invalid value: ${goStringSlice(finalizers)}: finalizer orphan and foregroundDeletion cannot be both set`,
    });
  return errors;
}

/** Go's `time.Time.String()` of an RFC 3339 timestamp, as kube prints a metav1.Time value. */
function goTime(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return value;
  const iso = new Date(ms).toISOString();
  const fraction = iso.slice(20, 23).replace(/0+$/, "");
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ""} +0000 UTC`;
}

function immutable(field: string, shown: string): FieldError {
  return {
    reason: "FieldValueInvalid",
    field,
    detail: `Invalid value: ${shown}: field is immutable`,
  };
}

/**
 * The server-owned fields an update may not change (`ValidateObjectMetaAccessorUpdate`),
 * checked on the request's object before the server copies the stored values in:
 * a uid other than the stored one (an empty uid takes the stored one, as kube's
 * `BeforeUpdate`), a deletionTimestamp or grace period the stored object does not have.
 */
export function immutableMetadataErrors(next: KubeObject, old: KubeObject): FieldError[] {
  const meta = next.metadata;
  const errors: FieldError[] = [];
  if (meta.uid !== undefined && meta.uid !== "" && meta.uid !== old.metadata.uid)
    errors.push(immutable("metadata.uid", JSON.stringify(meta.uid)));
  const deletion = meta.deletionTimestamp;
  if (!old.metadata.deletionTimestamp && deletion !== undefined && deletion !== null)
    errors.push(immutable("metadata.deletionTimestamp", JSON.stringify(goTime(String(deletion)))));
  const grace = meta.deletionGracePeriodSeconds;
  const oldGrace = old.metadata.deletionGracePeriodSeconds;
  if (grace !== undefined && grace !== null && grace !== oldGrace)
    errors.push(immutable("metadata.deletionGracePeriodSeconds", String(grace)));
  return errors;
}

/** apimachinery `ValidateManagedFields` over the entries about to be stored. */
export function managedFieldsErrors(obj: KubeObject): FieldError[] {
  const entries = obj.metadata.managedFields;
  if (!Array.isArray(entries)) return [];
  const errors: FieldError[] = [];
  entries.forEach((entry: unknown, i) => {
    if (!isObject(entry)) return;
    const at = `metadata.managedFields[${i}]`;
    const { operation, fieldsType, manager, subresource } = entry;
    if (operation !== "Apply" && operation !== "Update")
      errors.push(invalidValue(`${at}.operation`, operation ?? "", "must be `Apply` or `Update`"));
    if (typeof fieldsType === "string" && fieldsType !== "" && fieldsType !== "FieldsV1")
      errors.push(invalidValue(`${at}.fieldsType`, fieldsType, "must be `FieldsV1`"));
    if (typeof manager === "string") errors.push(...fieldManagerErrors(manager, `${at}.manager`));
    if (typeof subresource === "string" && Buffer.byteLength(subresource) > 256)
      errors.push({
        reason: "FieldValueTooLong",
        field: `${at}.subresource`,
        detail: "Too long: must have at most 256 bytes",
      });
  });
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
