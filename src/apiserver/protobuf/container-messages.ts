/**
 * Field tables for core/v1 Container and EphemeralContainer
 * (k8s.io/api/core/v1/generated.proto): ports, env and envFrom, resources,
 * volume mounts, probes, lifecycle hooks, security context.
 * Numbers are the proto's and every field of k8s.io/api v0.32 is listed (an unlisted
 * field would be dropped silently); emit rules follow the json tags in types.go.
 */
import { LocalObjectReference } from "./core-messages.js";
import { always, inline, list, map, message, omitEmpty, pointer } from "./schema.js";
import { ObjectFieldSelector, ResourceFieldSelector } from "./volume-messages.js";

const ContainerPort = message("ContainerPort", [
  omitEmpty(1, "name", "string"),
  omitEmpty(2, "hostPort", "int32"),
  always(3, "containerPort", "int32"),
  omitEmpty(4, "protocol", "string"),
  omitEmpty(5, "hostIP", "string"),
]);

const ConfigMapEnvSource = message("ConfigMapEnvSource", [
  inline(1, LocalObjectReference),
  pointer(2, "optional", "bool"),
]);

const SecretEnvSource = message("SecretEnvSource", [
  inline(1, LocalObjectReference),
  pointer(2, "optional", "bool"),
]);

const EnvFromSource = message("EnvFromSource", [
  omitEmpty(1, "prefix", "string"),
  pointer(2, "configMapRef", ConfigMapEnvSource),
  pointer(3, "secretRef", SecretEnvSource),
]);

const ConfigMapKeySelector = message("ConfigMapKeySelector", [
  inline(1, LocalObjectReference),
  always(2, "key", "string"),
  pointer(3, "optional", "bool"),
]);

const SecretKeySelector = message("SecretKeySelector", [
  inline(1, LocalObjectReference),
  always(2, "key", "string"),
  pointer(3, "optional", "bool"),
]);

const EnvVarSource = message("EnvVarSource", [
  pointer(1, "fieldRef", ObjectFieldSelector),
  pointer(2, "resourceFieldRef", ResourceFieldSelector),
  pointer(3, "configMapKeyRef", ConfigMapKeySelector),
  pointer(4, "secretKeyRef", SecretKeySelector),
]);

const EnvVar = message("EnvVar", [
  always(1, "name", "string"),
  omitEmpty(2, "value", "string"),
  pointer(3, "valueFrom", EnvVarSource),
]);

const ResourceClaim = message("ResourceClaim", [
  always(1, "name", "string"),
  omitEmpty(2, "request", "string"),
]);

export const ResourceRequirements = message("ResourceRequirements", [
  map(1, "limits", "quantity"),
  map(2, "requests", "quantity"),
  list(3, "claims", ResourceClaim),
]);

const ContainerResizePolicy = message("ContainerResizePolicy", [
  always(1, "resourceName", "string"),
  always(2, "restartPolicy", "string"),
]);

const VolumeMount = message("VolumeMount", [
  always(1, "name", "string"),
  omitEmpty(2, "readOnly", "bool"),
  pointer(7, "recursiveReadOnly", "string"),
  always(3, "mountPath", "string"),
  omitEmpty(4, "subPath", "string"),
  pointer(5, "mountPropagation", "string"),
  omitEmpty(6, "subPathExpr", "string"),
]);

const VolumeDevice = message("VolumeDevice", [
  always(1, "name", "string"),
  always(2, "devicePath", "string"),
]);

const ExecAction = message("ExecAction", [list(1, "command", "string")]);

const HTTPHeader = message("HTTPHeader", [
  always(1, "name", "string"),
  always(2, "value", "string"),
]);

const HTTPGetAction = message("HTTPGetAction", [
  omitEmpty(1, "path", "string"),
  always(2, "port", "intOrString"),
  omitEmpty(3, "host", "string"),
  omitEmpty(4, "scheme", "string"),
  list(5, "httpHeaders", HTTPHeader),
]);

const TCPSocketAction = message("TCPSocketAction", [
  always(1, "port", "intOrString"),
  omitEmpty(2, "host", "string"),
]);

const GRPCAction = message("GRPCAction", [
  always(1, "port", "int32"),
  pointer(2, "service", "string"),
]);

const ProbeHandler = message("ProbeHandler", [
  pointer(1, "exec", ExecAction),
  pointer(2, "httpGet", HTTPGetAction),
  pointer(3, "tcpSocket", TCPSocketAction),
  pointer(4, "grpc", GRPCAction),
]);

const Probe = message("Probe", [
  inline(1, ProbeHandler),
  omitEmpty(2, "initialDelaySeconds", "int32"),
  omitEmpty(3, "timeoutSeconds", "int32"),
  omitEmpty(4, "periodSeconds", "int32"),
  omitEmpty(5, "successThreshold", "int32"),
  omitEmpty(6, "failureThreshold", "int32"),
  pointer(7, "terminationGracePeriodSeconds", "int64"),
]);

const SleepAction = message("SleepAction", [always(1, "seconds", "int64")]);

const LifecycleHandler = message("LifecycleHandler", [
  pointer(1, "exec", ExecAction),
  pointer(2, "httpGet", HTTPGetAction),
  pointer(3, "tcpSocket", TCPSocketAction),
  pointer(4, "sleep", SleepAction),
]);

const Lifecycle = message("Lifecycle", [
  pointer(1, "postStart", LifecycleHandler),
  pointer(2, "preStop", LifecycleHandler),
]);

const Capabilities = message("Capabilities", [list(1, "add", "string"), list(2, "drop", "string")]);

export const SELinuxOptions = message("SELinuxOptions", [
  omitEmpty(1, "user", "string"),
  omitEmpty(2, "role", "string"),
  omitEmpty(3, "type", "string"),
  omitEmpty(4, "level", "string"),
]);

export const WindowsSecurityContextOptions = message("WindowsSecurityContextOptions", [
  pointer(1, "gmsaCredentialSpecName", "string"),
  pointer(2, "gmsaCredentialSpec", "string"),
  pointer(3, "runAsUserName", "string"),
  pointer(4, "hostProcess", "bool"),
]);

export const SeccompProfile = message("SeccompProfile", [
  always(1, "type", "string"),
  pointer(2, "localhostProfile", "string"),
]);

export const AppArmorProfile = message("AppArmorProfile", [
  always(1, "type", "string"),
  pointer(2, "localhostProfile", "string"),
]);

const SecurityContext = message("SecurityContext", [
  pointer(1, "capabilities", Capabilities),
  pointer(2, "privileged", "bool"),
  pointer(3, "seLinuxOptions", SELinuxOptions),
  pointer(10, "windowsOptions", WindowsSecurityContextOptions),
  pointer(4, "runAsUser", "int64"),
  pointer(8, "runAsGroup", "int64"),
  pointer(5, "runAsNonRoot", "bool"),
  pointer(6, "readOnlyRootFilesystem", "bool"),
  pointer(7, "allowPrivilegeEscalation", "bool"),
  pointer(9, "procMount", "string"),
  pointer(11, "seccompProfile", SeccompProfile),
  pointer(12, "appArmorProfile", AppArmorProfile),
]);

export const Container = message("Container", [
  always(1, "name", "string"),
  omitEmpty(2, "image", "string"),
  list(3, "command", "string"),
  list(4, "args", "string"),
  omitEmpty(5, "workingDir", "string"),
  list(6, "ports", ContainerPort),
  list(19, "envFrom", EnvFromSource),
  list(7, "env", EnvVar),
  always(8, "resources", ResourceRequirements),
  list(23, "resizePolicy", ContainerResizePolicy),
  pointer(24, "restartPolicy", "string"),
  list(9, "volumeMounts", VolumeMount),
  list(21, "volumeDevices", VolumeDevice),
  pointer(10, "livenessProbe", Probe),
  pointer(11, "readinessProbe", Probe),
  pointer(22, "startupProbe", Probe),
  pointer(12, "lifecycle", Lifecycle),
  omitEmpty(13, "terminationMessagePath", "string"),
  omitEmpty(20, "terminationMessagePolicy", "string"),
  omitEmpty(14, "imagePullPolicy", "string"),
  pointer(15, "securityContext", SecurityContext),
  omitEmpty(16, "stdin", "bool"),
  omitEmpty(17, "stdinOnce", "bool"),
  omitEmpty(18, "tty", "bool"),
]);

/** kube keeps EphemeralContainerCommon a field-for-field copy of Container, numbers included. */
const EphemeralContainerCommon = message("EphemeralContainerCommon", Container.fields);

export const EphemeralContainer = message("EphemeralContainer", [
  inline(1, EphemeralContainerCommon),
  omitEmpty(2, "targetContainerName", "string"),
]);
