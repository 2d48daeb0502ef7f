/**
 * Field tables for core/v1 PodSpec and PodTemplateSpec
 * (k8s.io/api/core/v1/generated.proto), which Pods, Jobs and CronJobs share.
 * Numbers are the proto's and every field of k8s.io/api v0.32 is listed (an unlisted
 * field would be dropped silently); emit rules follow the json tags in types.go.
 */
import {
  AppArmorProfile,
  Container,
  EphemeralContainer,
  ResourceRequirements,
  SELinuxOptions,
  SeccompProfile,
  WindowsSecurityContextOptions,
} from "./container-messages.js";
import { LocalObjectReference } from "./core-messages.js";
import { ObjectMeta } from "./meta-messages.js";
import { Affinity, Toleration, TopologySpreadConstraint } from "./pod-scheduling-messages.js";
import { always, list, listOrNull, map, message, omitEmpty, pointer } from "./schema.js";
import { Volume } from "./volume-messages.js";

const Sysctl = message("Sysctl", [always(1, "name", "string"), always(2, "value", "string")]);

const PodSecurityContext = message("PodSecurityContext", [
  pointer(1, "seLinuxOptions", SELinuxOptions),
  pointer(8, "windowsOptions", WindowsSecurityContextOptions),
  pointer(2, "runAsUser", "int64"),
  pointer(6, "runAsGroup", "int64"),
  pointer(3, "runAsNonRoot", "bool"),
  list(4, "supplementalGroups", "int64"),
  pointer(12, "supplementalGroupsPolicy", "string"),
  pointer(5, "fsGroup", "int64"),
  list(7, "sysctls", Sysctl),
  pointer(9, "fsGroupChangePolicy", "string"),
  pointer(10, "seccompProfile", SeccompProfile),
  pointer(11, "appArmorProfile", AppArmorProfile),
  pointer(13, "seLinuxChangePolicy", "string"),
]);

const HostAlias = message("HostAlias", [always(1, "ip", "string"), list(2, "hostnames", "string")]);

const PodDNSConfigOption = message("PodDNSConfigOption", [
  omitEmpty(1, "name", "string"),
  pointer(2, "value", "string"),
]);

const PodDNSConfig = message("PodDNSConfig", [
  list(1, "nameservers", "string"),
  list(2, "searches", "string"),
  list(3, "options", PodDNSConfigOption),
]);

const PodReadinessGate = message("PodReadinessGate", [always(1, "conditionType", "string")]);

const PodOS = message("PodOS", [always(1, "name", "string")]);

const PodSchedulingGate = message("PodSchedulingGate", [always(1, "name", "string")]);

const PodResourceClaim = message("PodResourceClaim", [
  always(1, "name", "string"),
  pointer(3, "resourceClaimName", "string"),
  pointer(4, "resourceClaimTemplateName", "string"),
]);

export const PodSpec = message("PodSpec", [
  list(1, "volumes", Volume),
  list(20, "initContainers", Container),
  listOrNull(2, "containers", Container),
  list(34, "ephemeralContainers", EphemeralContainer),
  omitEmpty(3, "restartPolicy", "string"),
  pointer(4, "terminationGracePeriodSeconds", "int64"),
  pointer(5, "activeDeadlineSeconds", "int64"),
  omitEmpty(6, "dnsPolicy", "string"),
  map(7, "nodeSelector", "string"),
  omitEmpty(8, "serviceAccountName", "string"),
  omitEmpty(9, "serviceAccount", "string"),
  pointer(21, "automountServiceAccountToken", "bool"),
  omitEmpty(10, "nodeName", "string"),
  omitEmpty(11, "hostNetwork", "bool"),
  omitEmpty(12, "hostPID", "bool"),
  omitEmpty(13, "hostIPC", "bool"),
  pointer(27, "shareProcessNamespace", "bool"),
  pointer(14, "securityContext", PodSecurityContext),
  list(15, "imagePullSecrets", LocalObjectReference),
  omitEmpty(16, "hostname", "string"),
  omitEmpty(17, "subdomain", "string"),
  pointer(18, "affinity", Affinity),
  omitEmpty(19, "schedulerName", "string"),
  list(22, "tolerations", Toleration),
  list(23, "hostAliases", HostAlias),
  omitEmpty(24, "priorityClassName", "string"),
  pointer(25, "priority", "int32"),
  pointer(26, "dnsConfig", PodDNSConfig),
  list(28, "readinessGates", PodReadinessGate),
  pointer(29, "runtimeClassName", "string"),
  pointer(30, "enableServiceLinks", "bool"),
  pointer(31, "preemptionPolicy", "string"),
  map(32, "overhead", "quantity"),
  list(33, "topologySpreadConstraints", TopologySpreadConstraint),
  pointer(35, "setHostnameAsFQDN", "bool"),
  pointer(36, "os", PodOS),
  pointer(37, "hostUsers", "bool"),
  list(38, "schedulingGates", PodSchedulingGate),
  list(39, "resourceClaims", PodResourceClaim),
  pointer(40, "resources", ResourceRequirements),
]);

export const PodTemplateSpec = message("PodTemplateSpec", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", PodSpec),
]);
