/**
 * The rest of kube-apiserver's `ValidateService` for the fields Hearth stores
 * but does not act on beyond ClusterIP: IP families and their policy, traffic
 * policies, session affinity config, external IPs, the selector, ports' node
 * ports, app protocols and (protocol, port) uniqueness, and the fields only a
 * LoadBalancer may set. Same field paths and wording as kube; the cluster is
 * single-stack IPv4, so IPv6 and RequireDualStack are refused as kube refuses
 * them on such a cluster.
 */
import { isIP } from "node:net";
import {
  type FieldError,
  forbiddenValue,
  invalidValue,
  labelValue,
  qualifiedName,
  requiredValue,
} from "../../api/index.js";
import { duplicate, notSupported } from "../validation/field-errors.js";

interface Port {
  port?: number;
  protocol?: string;
  nodePort?: number;
  appProtocol?: string;
}

interface Spec {
  type?: string;
  clusterIP?: string;
  ports?: Port[];
  selector?: Record<string, string>;
  sessionAffinity?: string;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  externalIPs?: string[];
  externalTrafficPolicy?: string;
  internalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  loadBalancerSourceRanges?: string[];
  loadBalancerClass?: string;
  allocateLoadBalancerNodePorts?: boolean;
  trafficDistribution?: string;
}

const MAX_AFFINITY_SECONDS = 86400;
const IP_MESSAGE = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const LOAD_BALANCER_ONLY = "may only be used when `type` is 'LoadBalancer'";

function ipFamilyErrors(spec: Spec): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const headless = spec.clusterIP === "None";
  (spec.ipFamilies ?? []).forEach((family, i) => {
    const at = `spec.ipFamilies[${i}]`;
    if (family !== "IPv4" && family !== "IPv6")
      errors.push(notSupported(at, family, ["IPv4", "IPv6"]));
    else if (family === "IPv6" && !headless)
      errors.push(invalidValue(at, family, "not configured on this cluster"));
    if (seen.has(family)) errors.push(duplicate(at, family));
    seen.add(family);
  });
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined) {
    if (!["PreferDualStack", "RequireDualStack", "SingleStack"].includes(policy))
      errors.push(
        notSupported("spec.ipFamilyPolicy", policy, [
          "PreferDualStack",
          "RequireDualStack",
          "SingleStack",
        ]),
      );
    else if (policy === "RequireDualStack" && !headless)
      errors.push(
        invalidValue(
          "spec.ipFamilyPolicy",
          policy,
          "this cluster is not configured for dual-stack services",
        ),
      );
  }
  return errors;
}

function affinityErrors(spec: Spec): FieldError[] {
  const config = spec.sessionAffinityConfig;
  if (spec.sessionAffinity === "None" || spec.sessionAffinity === undefined)
    return config === undefined
      ? []
      : [
          forbiddenValue(
            "spec.sessionAffinityConfig",
            "must not be set when session affinity is None",
          ),
        ];
  if (spec.sessionAffinity !== "ClientIP") return [];
  if (!config) return [requiredValue("spec.sessionAffinityConfig")];
  if (!config.clientIP) return [requiredValue("spec.sessionAffinityConfig.clientIP")];
  const t = config.clientIP.timeoutSeconds;
  const at = "spec.sessionAffinityConfig.clientIP.timeoutSeconds";
  if (t === undefined) return [requiredValue(at)];
  if (!(t > 0 && t <= MAX_AFFINITY_SECONDS))
    return [invalidValue(at, t, `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`)];
  return [];
}

function trafficErrors(spec: Spec): FieldError[] {
  const errors: FieldError[] = [];
  // Only ClusterIP is served: externally reachable means it has external IPs.
  const external = (spec.externalIPs?.length ?? 0) > 0;
  const etp = spec.externalTrafficPolicy;
  if (!external && etp !== undefined && etp !== "")
    errors.push(
      invalidValue(
        "spec.externalTrafficPolicy",
        etp,
        "may only be set for externally-accessible services",
      ),
    );
  else if (external && etp !== undefined && etp !== "Cluster" && etp !== "Local")
    errors.push(notSupported("spec.externalTrafficPolicy", etp, ["Cluster", "Local"]));
  if (spec.healthCheckNodePort !== undefined && spec.healthCheckNodePort !== 0)
    errors.push(
      invalidValue(
        "spec.healthCheckNodePort",
        spec.healthCheckNodePort,
        "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ),
    );
  const itp = spec.internalTrafficPolicy;
  if (itp !== undefined && itp !== "Cluster" && itp !== "Local")
    errors.push(notSupported("spec.internalTrafficPolicy", itp, ["Cluster", "Local"]));
  const td = spec.trafficDistribution;
  if (td !== undefined && td !== "PreferClose")
    errors.push(notSupported("spec.trafficDistribution", td, ["PreferClose"]));
  return errors;
}

function portErrors(spec: Spec): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (spec.ports ?? []).forEach((p, i) => {
    const at = `spec.ports[${i}]`;
    if (spec.type === "ClusterIP" && p.nodePort !== undefined && p.nodePort !== 0)
      errors.push(forbiddenValue(`${at}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
    if (p.appProtocol !== undefined)
      for (const why of qualifiedName(p.appProtocol))
        errors.push(invalidValue(`${at}.appProtocol`, p.appProtocol, why));
    const key = `${p.protocol}/${p.port}`;
    if (seen.has(key))
      errors.push({
        reason: "FieldValueDuplicate",
        field: at,
        detail: `Duplicate value: core.ServicePort{Name:"", Protocol:"${p.protocol}", AppProtocol:(*string)(nil), Port:${p.port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
      });
    seen.add(key);
  });
  return errors;
}

function otherErrors(spec: Spec): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(spec.selector ?? {})) {
    for (const why of qualifiedName(key)) errors.push(invalidValue("spec.selector", key, why));
    for (const why of labelValue(String(value)))
      errors.push(invalidValue("spec.selector", value, why));
  }
  (spec.externalIPs ?? []).forEach((ip, i) => {
    if (isIP(ip) === 0) errors.push(invalidValue(`spec.externalIPs[${i}]`, ip, IP_MESSAGE));
  });
  // kube's path for source ranges is capitalised so.
  if ((spec.loadBalancerSourceRanges?.length ?? 0) > 0)
    errors.push(forbiddenValue("spec.LoadBalancerSourceRanges", LOAD_BALANCER_ONLY));
  if (spec.allocateLoadBalancerNodePorts !== undefined)
    errors.push(forbiddenValue("spec.allocateLoadBalancerNodePorts", LOAD_BALANCER_ONLY));
  if (spec.loadBalancerClass !== undefined)
    errors.push(forbiddenValue("spec.loadBalancerClass", LOAD_BALANCER_ONLY));
  return errors;
}

/** Errors of a ClusterIP Service's spec beyond type, addresses, ports' numbers and affinity's value. */
export function serviceSpecErrors(spec: object): FieldError[] {
  const s = spec as Spec;
  return [
    ...ipFamilyErrors(s),
    ...affinityErrors(s),
    ...trafficErrors(s),
    ...portErrors(s),
    ...otherErrors(s),
  ];
}
