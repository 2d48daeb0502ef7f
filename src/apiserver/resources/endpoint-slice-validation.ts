/**
 * kube's `ValidateEndpointSlice` (and its update rule) for discovery.k8s.io/v1,
 * with its v1 default (a port's protocol is TCP): a supported, immutable
 * addressType; at most 1000 endpoints, each with 1 to 100 addresses of that
 * type (IPs that are not special, as Endpoints' — IPv4 loopback is Hearth's pod
 * network —, or fully qualified domain names), a subdomain nodeName and a
 * DNS-label hostname; at most 20000 ports with unique DNS-label names and a
 * supported protocol.
 */
import { isIPv4, isIPv6 } from "node:net";
import {
  dns1123Label,
  dns1123Subdomain,
  type FieldError,
  invalidValue,
  type KubeObject,
  requiredValue,
} from "../../api/index.js";
import { duplicate, notSupported, tooMany } from "../validation/field-errors.js";
import { type EndpointPort, nonSpecialIpErrors, protocolErrors } from "./endpoints-validation.js";

interface Endpoint {
  addresses?: string[];
  nodeName?: string;
  hostname?: string;
}

const ADDRESS_TYPES = ["FQDN", "IPv4", "IPv6"];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;

/** apimachinery's `IsFullyQualifiedDomainName`. */
function fqdnErrors(at: string, address: string): FieldError[] {
  if (address === "") return [requiredValue(at)];
  const name = address.endsWith(".") ? address.slice(0, -1) : address;
  const subdomain = dns1123Subdomain(name);
  if (subdomain.length > 0) return [invalidValue(at, name, subdomain.join(","))];
  const labels = name.split(".");
  if (labels.length < 2)
    return [
      invalidValue(at, name, "should be a domain with at least two segments separated by dots"),
    ];
  for (const label of labels) {
    const why = dns1123Label(label);
    if (why.length > 0) return [invalidValue(at, label, why.join(","))];
  }
  return [];
}

function addressErrors(type: string, at: string, address: string): FieldError[] {
  if (type === "FQDN") return fqdnErrors(at, address);
  if (type === "IPv4" && !isIPv4(address))
    return [invalidValue(at, address, "must be a valid IPv4 address")];
  if (type === "IPv6" && !isIPv6(address))
    return [invalidValue(at, address, "must be a valid IPv6 address")];
  // An unknown type is reported once, at addressType; its addresses go unchecked.
  return ADDRESS_TYPES.includes(type) ? nonSpecialIpErrors(at, address) : [];
}

function endpointErrors(e: Endpoint, type: string, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const addresses = e.addresses ?? [];
  if (addresses.length === 0)
    errors.push(requiredValue(`${at}.addresses`, "must contain at least 1 address"));
  else if (addresses.length > MAX_ADDRESSES)
    errors.push(tooMany(`${at}.addresses`, addresses.length, MAX_ADDRESSES));
  addresses.forEach((a, i) => {
    errors.push(...addressErrors(type, `${at}.addresses[${i}]`, a));
  });
  if (e.nodeName !== undefined)
    for (const why of dns1123Subdomain(e.nodeName))
      errors.push(invalidValue(`${at}.nodeName`, e.nodeName, why));
  if (e.hostname !== undefined)
    for (const why of dns1123Label(e.hostname))
      errors.push(invalidValue(`${at}.hostname`, e.hostname, why));
  return errors;
}

function portsErrors(ports: EndpointPort[]): FieldError[] {
  if (ports.length > MAX_PORTS) return [tooMany("ports", ports.length, MAX_PORTS)];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const at = `ports[${i}]`;
    const name = p.name ?? "";
    if (name)
      for (const why of dns1123Label(name)) errors.push(invalidValue(`${at}.name`, name, why));
    if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
    names.add(name);
    errors.push(...protocolErrors(p, at));
  });
  return errors;
}

export function validateEndpointSlice(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const type = (obj.addressType as string | undefined) ?? "";
  const errors: FieldError[] = [];
  if (!type) errors.push(requiredValue("addressType"));
  else if (!ADDRESS_TYPES.includes(type))
    errors.push(notSupported("addressType", type, ADDRESS_TYPES));
  const endpoints = (obj.endpoints ?? []) as Endpoint[];
  if (endpoints.length > MAX_ENDPOINTS)
    errors.push(tooMany("endpoints", endpoints.length, MAX_ENDPOINTS));
  else
    endpoints.forEach((e, i) => {
      errors.push(...endpointErrors(e, type, `endpoints[${i}]`));
    });
  errors.push(...portsErrors((obj.ports ?? []) as EndpointPort[]));
  if (old && old.addressType !== type)
    errors.push(invalidValue("addressType", type, "field is immutable"));
  return errors;
}

/** discovery/v1's default: a port's protocol is TCP. */
export function defaultEndpointSlice(obj: KubeObject): void {
  for (const p of (obj.ports ?? []) as EndpointPort[]) p.protocol ??= "TCP";
}
