/**
 * The patch library behind the apiserver's PATCH handler and its write path:
 * JSON patch, JSON merge patch, strategic merge patch and server-side apply with
 * managed fields, as pure functions with kube-apiserver's semantics and errors.
 */
export { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS, PATCH_REJECTED_MESSAGE } from "./json-patch.js";
export { applyMergePatch } from "./merge-patch.js";
export { decodePatchType, type PatchType } from "./patch-type.js";
export { type ServerSideApplyArgs, serverSideApply } from "./server-side-apply.js";
export { applyStrategicMergePatch } from "./strategic-patch.js";
export { computeFieldSet } from "./to-field-set.js";
export { type UpdateManagedFieldsArgs, updateManagedFields } from "./update-managed-fields.js";
