/**
 * Service defaults and validation, with kube-apiserver's field paths and
 * wording. Hearth serves `type: ClusterIP` only (headless with `clusterIP:
 * None`); ports default to TCP with `targetPort` = `port`. On update an omitted
 * clusterIP keeps the allocated one (kube's patchAllocatedValues, so `kubectl
 * apply` works), and a different one is refused: the address is immutable.
 */

import type { KubeObject } from "../../api/index.js";
import { dns1123Label, type FieldError, invalidValue, requiredValue } from "../../api/index.js";
import { parseIpv4 } from "./cluster-ip.js";
import { serviceSpecErrors } from "./service-spec-validation.js";

interface ServicePort {
  name?: string;
  port?: number;
  protocol?: string;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ports?: ServicePort[];
  sessionAffinity?: string;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  internalTrafficPolicy?: string;
  externalTrafficPolicy?: string;
  externalIPs?: string[];
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
}

const specOf = (o: KubeObject) => (o.spec ?? {}) as ServiceSpec;

/** The types kube knows; Hearth serves ClusterIP only and says so for the others. */
const KUBE_SERVICE_TYPES = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];

function unsupported(field: string, value: unknown, supported: string[]): FieldError {
  return {
    reason: "FieldValueNotSupported",
    field,
    detail: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}`,
  };
}

/** Defaults of a new Service (the ClusterIP itself is allocated when it is stored). */
export function defaultService(obj: KubeObject): void {
  const spec = { ...specOf(obj) };
  spec.type ??= "ClusterIP";
  spec.sessionAffinity ??= "None";
  spec.internalTrafficPolicy ??= "Cluster";
  spec.ipFamilies ??= ["IPv4"];
  spec.ipFamilyPolicy ??= "SingleStack";
  // kube's defaults for ClientIP affinity (3 hours) and for externally reachable services.
  if (spec.sessionAffinity === "ClientIP") {
    const clientIP = { ...spec.sessionAffinityConfig?.clientIP };
    clientIP.timeoutSeconds ??= 10800;
    spec.sessionAffinityConfig = { ...spec.sessionAffinityConfig, clientIP };
  }
  if ((spec.externalIPs?.length ?? 0) > 0) spec.externalTrafficPolicy ??= "Cluster";
  if (!spec.clusterIP && spec.clusterIPs?.length) spec.clusterIP = spec.clusterIPs[0];
  if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
  spec.ports = (spec.ports ?? []).map((p) => ({
    ...p,
    protocol: p.protocol ?? "TCP",
    targetPort: p.targetPort ?? p.port,
  }));
  obj.spec = spec;
}

/** Keeps the allocated address when an update omits it; defaults new ports. */
export function keepAllocated(obj: KubeObject, old: KubeObject): void {
  const spec = specOf(obj);
  const was = specOf(old);
  if (!spec.clusterIP && !spec.clusterIPs?.length && was.clusterIP) {
    spec.clusterIP = was.clusterIP;
    if (was.clusterIPs) spec.clusterIPs = was.clusterIPs;
  }
  obj.spec = spec;
  defaultService(obj);
}

/** IANA_SVC_NAME: at most 15 lower-case letters, digits and single dashes, one letter at least. */
export function ianaServiceNameErrors(name: string): string[] {
  const errors: string[] = [];
  if (name.length > 15) errors.push("must be no more than 15 characters");
  if (!/^[-a-z0-9]+$/.test(name))
    errors.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (name.includes("--")) errors.push("must not contain consecutive hyphens");
  if (!/[a-z]/.test(name)) errors.push("must contain at least one letter (a-z)");
  if (name.startsWith("-") || name.endsWith("-"))
    errors.push("must not begin or end with a hyphen");
  return errors;
}

function portErrors(p: ServicePort, i: number, many: boolean, names: Set<string>): FieldError[] {
  const path = `spec.ports[${i}]`;
  const errors: FieldError[] = [];
  if (p.name) {
    for (const why of dns1123Label(p.name)) errors.push(invalidValue(`${path}.name`, p.name, why));
    if (names.has(p.name))
      errors.push({
        reason: "FieldValueDuplicate",
        field: `${path}.name`,
        detail: `Duplicate value: ${JSON.stringify(p.name)}`,
      });
    names.add(p.name);
  } else if (many) errors.push(requiredValue(`${path}.name`));
  const port = p.port ?? 0; // an absent port is Go's zero
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    errors.push(invalidValue(`${path}.port`, port, "must be between 1 and 65535, inclusive"));
  if (!["TCP", "UDP", "SCTP"].includes(p.protocol ?? "TCP"))
    errors.push(unsupported(`${path}.protocol`, p.protocol, ["SCTP", "TCP", "UDP"]));
  const t = p.targetPort;
  if (typeof t === "number" && (!Number.isInteger(t) || t < 1 || t > 65535))
    errors.push(invalidValue(`${path}.targetPort`, t, "must be between 1 and 65535, inclusive"));
  if (typeof t === "string")
    for (const why of ianaServiceNameErrors(t))
      errors.push(invalidValue(`${path}.targetPort`, t, why));
  return errors;
}

const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

export function validateService(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = specOf(obj);
  const errors: FieldError[] = [];
  // Service names are DNS-1035 labels: the dns1123-label rule plus a leading letter.
  const name = obj.metadata.name ?? "";
  if (!old && /^[0-9]/.test(name))
    errors.push(invalidValue("metadata.name", name, DNS1035_MESSAGE));
  if (!KUBE_SERVICE_TYPES.includes(spec.type ?? ""))
    errors.push(unsupported("spec.type", spec.type, KUBE_SERVICE_TYPES));
  else if (spec.type !== "ClusterIP")
    errors.push(unsupported("spec.type", spec.type, ["ClusterIP"]));
  const ip = spec.clusterIP ?? "";
  if (ip !== "" && ip !== "None" && parseIpv4(ip) === undefined)
    errors.push(
      invalidValue(
        "spec.clusterIP",
        ip,
        "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
      ),
    );
  const was = old ? (specOf(old).clusterIP ?? "") : "";
  if (old && was !== "" && ip !== was)
    errors.push(invalidValue("spec.clusterIPs[0]", ip, "may not change once set"));
  else if ((spec.clusterIPs?.length ?? 0) > 1)
    errors.push(
      invalidValue(
        "spec.clusterIPs",
        spec.clusterIPs,
        "may specify no more than one IP for each IP family",
      ),
    );
  else if (spec.clusterIPs?.length && spec.clusterIPs[0] !== ip)
    errors.push(
      invalidValue(
        "spec.clusterIPs[0]",
        spec.clusterIPs[0],
        "must be consistent with spec.clusterIP",
      ),
    );
  const ports = spec.ports ?? [];
  if (ports.length === 0 && ip !== "None") errors.push(requiredValue("spec.ports"));
  const names = new Set<string>();
  ports.forEach((p, i) => {
    errors.push(...portErrors(p, i, ports.length > 1, names));
  });
  if (!["None", "ClientIP"].includes(spec.sessionAffinity ?? "None"))
    errors.push(unsupported("spec.sessionAffinity", spec.sessionAffinity, ["ClientIP", "None"]));
  errors.push(...serviceSpecErrors(obj.spec ?? {}));
  return errors;
}
