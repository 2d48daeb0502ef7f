/**
 * Schema-driven structural checks of request bodies: types and constraints
 * (`checkObject`), unknown-field pruning, CRD defaulting, and kube's strict
 * decoding message.
 */
export { type CheckOptions, type CheckResult, checkObject } from "./check-object.js";
export { defaultInPlace } from "./defaults.js";
export { uncovered } from "./field-errors.js";
export { type JsonType, jsonType } from "./json-type.js";
export { pruneUnknownFields } from "./prune.js";
export { strictDecodingMessage, unknownFieldWarnings } from "./strict-decoding.js";
