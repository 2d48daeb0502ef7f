/**
 * Field tables for core/v1 Pod and its PodStatus (k8s.io/api/core/v1/generated.proto),
 * as `kubectl debug` and other typed clients send them.
 * Numbers are the proto's and every field of k8s.io/api v0.32 is listed (an unlisted
 * field would be dropped silently); emit rules follow the json tags in types.go.
 */
import { ResourceRequirements } from "./container-messages.js";
import { ObjectMeta } from "./meta-messages.js";
import { PodSpec } from "./pod-spec-messages.js";
import { always, list, map, message, omitEmpty, pointer } from "./schema.js";

const PodCondition = message("PodCondition", [
  always(1, "type", "string"),
  always(2, "status", "string"),
  always(3, "lastProbeTime", "time"),
  always(4, "lastTransitionTime", "time"),
  omitEmpty(5, "reason", "string"),
  omitEmpty(6, "message", "string"),
]);

const HostIP = message("HostIP", [always(1, "ip", "string")]);

const PodIP = message("PodIP", [always(1, "ip", "string")]);

const ContainerStateWaiting = message("ContainerStateWaiting", [
  omitEmpty(1, "reason", "string"),
  omitEmpty(2, "message", "string"),
]);

const ContainerStateRunning = message("ContainerStateRunning", [always(1, "startedAt", "time")]);

const ContainerStateTerminated = message("ContainerStateTerminated", [
  always(1, "exitCode", "int32"),
  omitEmpty(2, "signal", "int32"),
  omitEmpty(3, "reason", "string"),
  omitEmpty(4, "message", "string"),
  always(5, "startedAt", "time"),
  always(6, "finishedAt", "time"),
  omitEmpty(7, "containerID", "string"),
]);

const ContainerState = message("ContainerState", [
  pointer(1, "waiting", ContainerStateWaiting),
  pointer(2, "running", ContainerStateRunning),
  pointer(3, "terminated", ContainerStateTerminated),
]);

const VolumeMountStatus = message("VolumeMountStatus", [
  always(1, "name", "string"),
  always(2, "mountPath", "string"),
  omitEmpty(3, "readOnly", "bool"),
  pointer(4, "recursiveReadOnly", "string"),
]);

const LinuxContainerUser = message("LinuxContainerUser", [
  always(1, "uid", "int64"),
  always(2, "gid", "int64"),
  list(3, "supplementalGroups", "int64"),
]);

const ContainerUser = message("ContainerUser", [pointer(1, "linux", LinuxContainerUser)]);

const ResourceHealth = message("ResourceHealth", [
  always(1, "resourceID", "string"),
  omitEmpty(2, "health", "string"),
]);

const ResourceStatus = message("ResourceStatus", [
  always(1, "name", "string"),
  list(2, "resources", ResourceHealth),
]);

const ContainerStatus = message("ContainerStatus", [
  always(1, "name", "string"),
  always(2, "state", ContainerState),
  always(3, "lastState", ContainerState),
  always(4, "ready", "bool"),
  always(5, "restartCount", "int32"),
  always(6, "image", "string"),
  always(7, "imageID", "string"),
  omitEmpty(8, "containerID", "string"),
  pointer(9, "started", "bool"),
  map(10, "allocatedResources", "quantity"),
  pointer(11, "resources", ResourceRequirements),
  list(12, "volumeMounts", VolumeMountStatus),
  pointer(13, "user", ContainerUser),
  list(14, "allocatedResourcesStatus", ResourceStatus),
]);

const PodResourceClaimStatus = message("PodResourceClaimStatus", [
  always(1, "name", "string"),
  pointer(2, "resourceClaimName", "string"),
]);

const PodStatus = message("PodStatus", [
  omitEmpty(1, "phase", "string"),
  list(2, "conditions", PodCondition),
  omitEmpty(3, "message", "string"),
  omitEmpty(4, "reason", "string"),
  omitEmpty(11, "nominatedNodeName", "string"),
  omitEmpty(5, "hostIP", "string"),
  list(16, "hostIPs", HostIP),
  omitEmpty(6, "podIP", "string"),
  list(12, "podIPs", PodIP),
  pointer(7, "startTime", "time"),
  list(10, "initContainerStatuses", ContainerStatus),
  list(8, "containerStatuses", ContainerStatus),
  omitEmpty(9, "qosClass", "string"),
  list(13, "ephemeralContainerStatuses", ContainerStatus),
  omitEmpty(14, "resize", "string"),
  list(15, "resourceClaimStatuses", PodResourceClaimStatus),
]);

export const Pod = message("Pod", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", PodSpec),
  always(3, "status", PodStatus),
]);
