/**
 * Field tables for k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto:
 * ObjectMeta and its parts, LabelSelector, Condition, Preconditions, DeleteOptions. Numbers are the proto's,
 * emit rules follow the Go structs' json tags in pkg/apis/meta/v1/types.go.
 */
import { always, list, map, message, omitEmpty, pointer } from "./schema.js";

export const OwnerReference = message("OwnerReference", [
  always(5, "apiVersion", "string"),
  always(1, "kind", "string"),
  always(3, "name", "string"),
  always(4, "uid", "string"),
  pointer(6, "controller", "bool"),
  pointer(7, "blockOwnerDeletion", "bool"),
]);

export const ManagedFieldsEntry = message("ManagedFieldsEntry", [
  omitEmpty(1, "manager", "string"),
  omitEmpty(2, "operation", "string"),
  omitEmpty(3, "apiVersion", "string"),
  pointer(4, "time", "time"),
  omitEmpty(6, "fieldsType", "string"),
  pointer(7, "fieldsV1", "fieldsV1"),
  omitEmpty(8, "subresource", "string"),
]);

export const ObjectMeta = message("ObjectMeta", [
  omitEmpty(1, "name", "string"),
  omitEmpty(2, "generateName", "string"),
  omitEmpty(3, "namespace", "string"),
  omitEmpty(4, "selfLink", "string"),
  omitEmpty(5, "uid", "string"),
  omitEmpty(6, "resourceVersion", "string"),
  omitEmpty(7, "generation", "int64"),
  // kube 1.32 (the kubectl we serve) renders a zero creationTimestamp as null;
  // 1.34 added `omitzero` — switch to omitZero(...) to follow it.
  always(8, "creationTimestamp", "time"),
  pointer(9, "deletionTimestamp", "time"),
  pointer(10, "deletionGracePeriodSeconds", "int64"),
  map(11, "labels", "string"),
  map(12, "annotations", "string"),
  list(13, "ownerReferences", OwnerReference),
  list(14, "finalizers", "string"),
  list(17, "managedFields", ManagedFieldsEntry),
]);

export const LabelSelectorRequirement = message("LabelSelectorRequirement", [
  always(1, "key", "string"),
  always(2, "operator", "string"),
  list(3, "values", "string"),
]);

export const LabelSelector = message("LabelSelector", [
  map(1, "matchLabels", "string"),
  list(2, "matchExpressions", LabelSelectorRequirement),
]);

export const Condition = message("Condition", [
  always(1, "type", "string"),
  always(2, "status", "string"),
  omitEmpty(3, "observedGeneration", "int64"),
  always(4, "lastTransitionTime", "time"),
  always(5, "reason", "string"),
  always(6, "message", "string"),
]);

export const Preconditions = message("Preconditions", [
  pointer(1, "uid", "string"),
  pointer(2, "resourceVersion", "string"),
]);

export const DeleteOptions = message("DeleteOptions", [
  pointer(1, "gracePeriodSeconds", "int64"),
  pointer(2, "preconditions", Preconditions),
  pointer(3, "orphanDependents", "bool"),
  pointer(4, "propagationPolicy", "string"),
  list(5, "dryRun", "string"),
  pointer(6, "ignoreStoreReadErrorWithClusterBreakingPotential", "bool"),
]);
