/**
 * Field tables for core/v1 Service (k8s.io/api/core/v1/generated.proto), as
 * `kubectl create service clusterip|nodeport|loadbalancer|externalname` sends it:
 * ports with IntOrString targetPorts, selector, type, cluster IPs, session
 * affinity, IP families, and the status with load-balancer ingress and conditions.
 * Numbers are the proto's and every field of k8s.io/api v0.32 is listed (an unlisted
 * field would be dropped silently); emit rules follow the json tags in types.go.
 */
import { Condition, ObjectMeta } from "./meta-messages.js";
import { always, list, map, message, omitEmpty, pointer } from "./schema.js";

const ServicePort = message("ServicePort", [
  omitEmpty(1, "name", "string"),
  omitEmpty(2, "protocol", "string"),
  pointer(6, "appProtocol", "string"),
  always(3, "port", "int32"),
  always(4, "targetPort", "intOrString"),
  omitEmpty(5, "nodePort", "int32"),
]);

const ClientIPConfig = message("ClientIPConfig", [pointer(1, "timeoutSeconds", "int32")]);

const SessionAffinityConfig = message("SessionAffinityConfig", [
  pointer(1, "clientIP", ClientIPConfig),
]);

const ServiceSpec = message("ServiceSpec", [
  list(1, "ports", ServicePort),
  map(2, "selector", "string"),
  omitEmpty(3, "clusterIP", "string"),
  list(18, "clusterIPs", "string"),
  omitEmpty(4, "type", "string"),
  list(5, "externalIPs", "string"),
  omitEmpty(7, "sessionAffinity", "string"),
  omitEmpty(8, "loadBalancerIP", "string"),
  list(9, "loadBalancerSourceRanges", "string"),
  omitEmpty(10, "externalName", "string"),
  omitEmpty(11, "externalTrafficPolicy", "string"),
  omitEmpty(12, "healthCheckNodePort", "int32"),
  omitEmpty(13, "publishNotReadyAddresses", "bool"),
  pointer(14, "sessionAffinityConfig", SessionAffinityConfig),
  list(19, "ipFamilies", "string"),
  pointer(17, "ipFamilyPolicy", "string"),
  pointer(20, "allocateLoadBalancerNodePorts", "bool"),
  pointer(21, "loadBalancerClass", "string"),
  pointer(22, "internalTrafficPolicy", "string"),
  pointer(23, "trafficDistribution", "string"),
]);

const PortStatus = message("PortStatus", [
  always(1, "port", "int32"),
  always(2, "protocol", "string"),
  pointer(3, "error", "string"),
]);

const LoadBalancerIngress = message("LoadBalancerIngress", [
  omitEmpty(1, "ip", "string"),
  omitEmpty(2, "hostname", "string"),
  pointer(3, "ipMode", "string"),
  list(4, "ports", PortStatus),
]);

const LoadBalancerStatus = message("LoadBalancerStatus", [list(1, "ingress", LoadBalancerIngress)]);

const ServiceStatus = message("ServiceStatus", [
  always(1, "loadBalancer", LoadBalancerStatus),
  list(2, "conditions", Condition),
]);

export const Service = message("Service", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", ServiceSpec),
  always(3, "status", ServiceStatus),
]);
