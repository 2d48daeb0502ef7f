/**
 * kube's `ValidateEndpoints` for core/v1 Endpoints, with its v1 default (a
 * port's protocol is TCP): every subset has addresses; every address is an IP
 * that is not unspecified, link-local or link-local multicast, with a DNS-label
 * hostname and a subdomain node name; every port is in 1..65535 with a
 * supported protocol and, when its subset has several, a DNS-label name.
 * One departure: Hearth's pods live on IPv4 loopback addresses (the pod CIDR is
 * inside 127.0.0.0/8), so IPv4 loopback is accepted where kube refuses it.
 */
import { BlockList, isIP } from "node:net";
import {
  dns1123Label,
  dns1123Subdomain,
  type FieldError,
  invalidValue,
  type KubeObject,
  qualifiedName,
  requiredValue,
} from "../../api/index.js";
import { notSupported } from "../validation/field-errors.js";

interface Address {
  ip?: string;
  hostname?: string;
  nodeName?: string;
}

export interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: string;
  appProtocol?: string;
}

interface Subset {
  addresses?: Address[];
  notReadyAddresses?: Address[];
  ports?: EndpointPort[];
}

const PROTOCOLS = ["SCTP", "TCP", "UDP"];

function blockList(ranges: [string, number, "ipv4" | "ipv6"][]): BlockList {
  const list = new BlockList();
  for (const [net, prefix, family] of ranges) list.addSubnet(net, prefix, family);
  return list;
}

/** kube's special ranges, each with its message; IPv4 loopback is left out (see above). */
const SPECIAL: [BlockList, string][] = [
  [blockList([["::1", 128, "ipv6"]]), "may not be in the loopback range (127.0.0.0/8, ::1/128)"],
  [
    blockList([
      ["169.254.0.0", 16, "ipv4"],
      ["fe80::", 10, "ipv6"],
    ]),
    "may not be in the link-local range (169.254.0.0/16, fe80::/10)",
  ],
  [
    blockList([
      ["224.0.0.0", 24, "ipv4"],
      ["ff02::", 16, "ipv6"],
    ]),
    "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
  ],
];

const UNSPECIFIED = blockList([
  ["0.0.0.0", 32, "ipv4"],
  ["::", 128, "ipv6"],
]);

/** kube's `IsValidIP`: the one error of a value that is not an IP. */
function ipErrors(field: string, ip: string): FieldError[] {
  return isIP(ip) === 0
    ? [invalidValue(field, ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")]
    : [];
}

/** kube's `ValidateNonSpecialIP` (without IPv4 loopback, see above). */
export function nonSpecialIpErrors(field: string, ip: string): FieldError[] {
  const family = isIP(ip);
  if (family === 0) return [invalidValue(field, ip, "must be a valid IP address")];
  const type = family === 4 ? "ipv4" : "ipv6";
  const errors: FieldError[] = [];
  if (UNSPECIFIED.check(ip, type))
    errors.push(invalidValue(field, ip, `may not be unspecified (${ip})`));
  for (const [list, why] of SPECIAL)
    if (list.check(ip, type)) errors.push(invalidValue(field, ip, why));
  return errors;
}

function addressErrors(a: Address, at: string): FieldError[] {
  const ip = a.ip ?? "";
  const errors = ipErrors(`${at}.ip`, ip);
  if (a.hostname)
    for (const why of dns1123Label(a.hostname))
      errors.push(invalidValue(`${at}.hostname`, a.hostname, why));
  if (a.nodeName !== undefined)
    for (const why of dns1123Subdomain(a.nodeName))
      errors.push(invalidValue(`${at}.nodeName`, a.nodeName, why));
  errors.push(...nonSpecialIpErrors(`${at}.ip`, ip));
  return errors;
}

function portErrors(p: EndpointPort, requireName: boolean, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (requireName && !p.name) errors.push(requiredValue(`${at}.name`));
  else if (p.name)
    for (const why of dns1123Label(p.name)) errors.push(invalidValue(`${at}.name`, p.name, why));
  const port = p.port ?? 0;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    errors.push(invalidValue(`${at}.port`, port, "must be between 1 and 65535, inclusive"));
  errors.push(...protocolErrors(p, at));
  return errors;
}

/** An endpoint port's protocol (required, supported) and appProtocol (a qualified name). */
export function protocolErrors(p: EndpointPort, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!p.protocol) errors.push(requiredValue(`${at}.protocol`));
  else if (!PROTOCOLS.includes(p.protocol))
    errors.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  if (p.appProtocol !== undefined)
    for (const why of qualifiedName(p.appProtocol))
      errors.push(invalidValue(`${at}.appProtocol`, p.appProtocol, why));
  return errors;
}

const subsetsOf = (obj: KubeObject) => (obj.subsets ?? []) as Subset[];

export function validateEndpoints(obj: KubeObject): FieldError[] {
  return subsetsOf(obj).flatMap((ss, i) => {
    const at = `subsets[${i}]`;
    const errors: FieldError[] = [];
    if ((ss.addresses ?? []).length === 0 && (ss.notReadyAddresses ?? []).length === 0)
      errors.push(requiredValue(at, "must specify `addresses` or `notReadyAddresses`"));
    (ss.addresses ?? []).forEach((a, j) => {
      errors.push(...addressErrors(a, `${at}.addresses[${j}]`));
    });
    (ss.notReadyAddresses ?? []).forEach((a, j) => {
      errors.push(...addressErrors(a, `${at}.notReadyAddresses[${j}]`));
    });
    const ports = ss.ports ?? [];
    ports.forEach((p, j) => {
      errors.push(...portErrors(p, ports.length > 1, `${at}.ports[${j}]`));
    });
    return errors;
  });
}

/** v1's default: an endpoint port's protocol is TCP. */
export function defaultEndpoints(obj: KubeObject): void {
  for (const ss of subsetsOf(obj)) for (const p of ss.ports ?? []) p.protocol ??= "TCP";
}
