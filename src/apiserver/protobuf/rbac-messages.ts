/**
 * Field tables for k8s.io/api/rbac/v1/generated.proto (Role, ClusterRole,
 * RoleBinding, ClusterRoleBinding and their parts), which `kubectl create
 * role|clusterrole|rolebinding|clusterrolebinding` send.
 * Emit rules follow the json tags in rbac/v1/types.go.
 */
import { LabelSelector, ObjectMeta } from "./meta-messages.js";
import { always, list, message, omitEmpty, pointer } from "./schema.js";

const PolicyRule = message("PolicyRule", [
  list(1, "verbs", "string"),
  list(2, "apiGroups", "string"),
  list(3, "resources", "string"),
  list(4, "resourceNames", "string"),
  list(5, "nonResourceURLs", "string"),
]);

const Subject = message("Subject", [
  always(1, "kind", "string"),
  omitEmpty(2, "apiGroup", "string"),
  always(3, "name", "string"),
  omitEmpty(4, "namespace", "string"),
]);

const RoleRef = message("RoleRef", [
  always(1, "apiGroup", "string"),
  always(2, "kind", "string"),
  always(3, "name", "string"),
]);

const AggregationRule = message("AggregationRule", [
  list(1, "clusterRoleSelectors", LabelSelector),
]);

export const Role = message("Role", [
  always(1, "metadata", ObjectMeta),
  list(2, "rules", PolicyRule),
]);

export const ClusterRole = message("ClusterRole", [
  always(1, "metadata", ObjectMeta),
  list(2, "rules", PolicyRule),
  pointer(3, "aggregationRule", AggregationRule),
]);

/** RoleBinding and ClusterRoleBinding share one shape. */
export const RoleBinding = message("RoleBinding", [
  always(1, "metadata", ObjectMeta),
  list(2, "subjects", Subject),
  always(3, "roleRef", RoleRef),
]);
