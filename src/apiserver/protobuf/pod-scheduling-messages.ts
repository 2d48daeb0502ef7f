/**
 * Field tables for the scheduling parts of a core/v1 PodSpec
 * (k8s.io/api/core/v1/generated.proto): node and pod (anti-)affinity,
 * tolerations, topology spread constraints.
 * Numbers are the proto's and every field of k8s.io/api v0.32 is listed (an unlisted
 * field would be dropped silently); emit rules follow the json tags in types.go.
 */
import { LabelSelector } from "./meta-messages.js";
import { always, list, listOrNull, message, omitEmpty, pointer } from "./schema.js";

const NodeSelectorRequirement = message("NodeSelectorRequirement", [
  always(1, "key", "string"),
  always(2, "operator", "string"),
  list(3, "values", "string"),
]);

const NodeSelectorTerm = message("NodeSelectorTerm", [
  list(1, "matchExpressions", NodeSelectorRequirement),
  list(2, "matchFields", NodeSelectorRequirement),
]);

const NodeSelector = message("NodeSelector", [
  listOrNull(1, "nodeSelectorTerms", NodeSelectorTerm),
]);

const PreferredSchedulingTerm = message("PreferredSchedulingTerm", [
  always(1, "weight", "int32"),
  always(2, "preference", NodeSelectorTerm),
]);

const NodeAffinity = message("NodeAffinity", [
  pointer(1, "requiredDuringSchedulingIgnoredDuringExecution", NodeSelector),
  list(2, "preferredDuringSchedulingIgnoredDuringExecution", PreferredSchedulingTerm),
]);

const PodAffinityTerm = message("PodAffinityTerm", [
  pointer(1, "labelSelector", LabelSelector),
  list(2, "namespaces", "string"),
  always(3, "topologyKey", "string"),
  pointer(4, "namespaceSelector", LabelSelector),
  list(5, "matchLabelKeys", "string"),
  list(6, "mismatchLabelKeys", "string"),
]);

const WeightedPodAffinityTerm = message("WeightedPodAffinityTerm", [
  always(1, "weight", "int32"),
  always(2, "podAffinityTerm", PodAffinityTerm),
]);

const PodAffinity = message("PodAffinity", [
  list(1, "requiredDuringSchedulingIgnoredDuringExecution", PodAffinityTerm),
  list(2, "preferredDuringSchedulingIgnoredDuringExecution", WeightedPodAffinityTerm),
]);

const PodAntiAffinity = message("PodAntiAffinity", [
  list(1, "requiredDuringSchedulingIgnoredDuringExecution", PodAffinityTerm),
  list(2, "preferredDuringSchedulingIgnoredDuringExecution", WeightedPodAffinityTerm),
]);

export const Affinity = message("Affinity", [
  pointer(1, "nodeAffinity", NodeAffinity),
  pointer(2, "podAffinity", PodAffinity),
  pointer(3, "podAntiAffinity", PodAntiAffinity),
]);

export const Toleration = message("Toleration", [
  omitEmpty(1, "key", "string"),
  omitEmpty(2, "operator", "string"),
  omitEmpty(3, "value", "string"),
  omitEmpty(4, "effect", "string"),
  pointer(5, "tolerationSeconds", "int64"),
]);

export const TopologySpreadConstraint = message("TopologySpreadConstraint", [
  always(1, "maxSkew", "int32"),
  always(2, "topologyKey", "string"),
  always(3, "whenUnsatisfiable", "string"),
  pointer(4, "labelSelector", LabelSelector),
  pointer(5, "minDomains", "int32"),
  pointer(6, "nodeAffinityPolicy", "string"),
  pointer(7, "nodeTaintsPolicy", "string"),
  list(8, "matchLabelKeys", "string"),
]);
