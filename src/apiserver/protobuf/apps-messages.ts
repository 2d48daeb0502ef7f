/**
 * Field tables for k8s.io/api/apps/v1/generated.proto: Deployment (spec,
 * strategy, status, conditions) and ReplicaSet, as `kubectl create deployment`
 * and typed clients send them. Numbers are the proto's and every field of
 * k8s.io/api v0.32 is listed (an unlisted field would be dropped silently);
 * emit rules follow the json tags in types.go.
 */
import { LabelSelector, ObjectMeta } from "./meta-messages.js";
import { PodTemplateSpec } from "./pod-spec-messages.js";
import { always, list, message, omitEmpty, pointer } from "./schema.js";

const RollingUpdateDeployment = message("RollingUpdateDeployment", [
  pointer(1, "maxUnavailable", "intOrString"),
  pointer(2, "maxSurge", "intOrString"),
]);

const DeploymentStrategy = message("DeploymentStrategy", [
  omitEmpty(1, "type", "string"),
  pointer(2, "rollingUpdate", RollingUpdateDeployment),
]);

const DeploymentSpec = message("DeploymentSpec", [
  pointer(1, "replicas", "int32"),
  pointer(2, "selector", LabelSelector),
  always(3, "template", PodTemplateSpec),
  always(4, "strategy", DeploymentStrategy),
  omitEmpty(5, "minReadySeconds", "int32"),
  pointer(6, "revisionHistoryLimit", "int32"),
  omitEmpty(7, "paused", "bool"),
  pointer(9, "progressDeadlineSeconds", "int32"),
]);

const DeploymentCondition = message("DeploymentCondition", [
  always(1, "type", "string"),
  always(2, "status", "string"),
  always(6, "lastUpdateTime", "time"),
  always(7, "lastTransitionTime", "time"),
  omitEmpty(4, "reason", "string"),
  omitEmpty(5, "message", "string"),
]);

const DeploymentStatus = message("DeploymentStatus", [
  omitEmpty(1, "observedGeneration", "int64"),
  omitEmpty(2, "replicas", "int32"),
  omitEmpty(3, "updatedReplicas", "int32"),
  omitEmpty(7, "readyReplicas", "int32"),
  omitEmpty(4, "availableReplicas", "int32"),
  omitEmpty(5, "unavailableReplicas", "int32"),
  pointer(9, "terminatingReplicas", "int32"),
  list(6, "conditions", DeploymentCondition),
  pointer(8, "collisionCount", "int32"),
]);

export const Deployment = message("Deployment", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", DeploymentSpec),
  always(3, "status", DeploymentStatus),
]);

const ReplicaSetSpec = message("ReplicaSetSpec", [
  pointer(1, "replicas", "int32"),
  omitEmpty(4, "minReadySeconds", "int32"),
  pointer(2, "selector", LabelSelector),
  always(3, "template", PodTemplateSpec),
]);

const ReplicaSetCondition = message("ReplicaSetCondition", [
  always(1, "type", "string"),
  always(2, "status", "string"),
  always(3, "lastTransitionTime", "time"),
  omitEmpty(4, "reason", "string"),
  omitEmpty(5, "message", "string"),
]);

const ReplicaSetStatus = message("ReplicaSetStatus", [
  always(1, "replicas", "int32"),
  omitEmpty(2, "fullyLabeledReplicas", "int32"),
  omitEmpty(4, "readyReplicas", "int32"),
  omitEmpty(5, "availableReplicas", "int32"),
  pointer(7, "terminatingReplicas", "int32"),
  omitEmpty(3, "observedGeneration", "int64"),
  list(6, "conditions", ReplicaSetCondition),
]);

export const ReplicaSet = message("ReplicaSet", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", ReplicaSetSpec),
  always(3, "status", ReplicaSetStatus),
]);
