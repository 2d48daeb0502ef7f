/**
 * Field tables for k8s.io/api/policy/v1/generated.proto: PodDisruptionBudget,
 * as `kubectl create poddisruptionbudget` sends it, and Eviction, as `kubectl
 * drain` sends it to `pods/<name>/eviction`. Numbers are the proto's; emit
 * rules follow the json tags in types.go. The status's `disruptedPods` (a map
 * of timestamps, which only the server writes) is not decoded.
 */
import { Condition, DeleteOptions, LabelSelector, ObjectMeta } from "./meta-messages.js";
import { always, list, message, omitEmpty, pointer } from "./schema.js";

const PodDisruptionBudgetSpec = message("PodDisruptionBudgetSpec", [
  pointer(1, "minAvailable", "intOrString"),
  pointer(2, "selector", LabelSelector),
  pointer(3, "maxUnavailable", "intOrString"),
  pointer(4, "unhealthyPodEvictionPolicy", "string"),
]);

const PodDisruptionBudgetStatus = message("PodDisruptionBudgetStatus", [
  omitEmpty(1, "observedGeneration", "int64"),
  always(3, "disruptionsAllowed", "int32"),
  always(4, "currentHealthy", "int32"),
  always(5, "desiredHealthy", "int32"),
  always(6, "expectedPods", "int32"),
  list(7, "conditions", Condition),
]);

export const PodDisruptionBudget = message("PodDisruptionBudget", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", PodDisruptionBudgetSpec),
  always(3, "status", PodDisruptionBudgetStatus),
]);

export const Eviction = message("Eviction", [
  always(1, "metadata", ObjectMeta),
  pointer(2, "deleteOptions", DeleteOptions),
]);
