/**
 * The checks every value passes before it is written into an nftables script:
 * a script is code, so only what matches these strict shapes is ever
 * interpolated (addresses, ports, DNS labels); anything else is skipped.
 */
import { isIPv4 } from "node:net";

/** A dotted-quad IPv4 address (no leading zeros, no zone), not `0.0.0.0`. */
export function validIPv4(ip: unknown): ip is string {
  return typeof ip === "string" && isIPv4(ip) && ip !== "0.0.0.0";
}

export function isLoopback(ip: string): boolean {
  return ip.startsWith("127.");
}

/** `a.b.c.d/n` with 0 ≤ n ≤ 32. */
export function validCIDR(cidr: unknown): cidr is string {
  if (typeof cidr !== "string") return false;
  const [ip, bits, ...rest] = cidr.split("/");
  return rest.length === 0 && isIPv4(ip ?? "") && /^(\d|[12]\d|3[0-2])$/.test(bits ?? "");
}

export function validPort(port: unknown): port is number {
  return typeof port === "number" && Number.isInteger(port) && port >= 1 && port <= 65535;
}

/** An RFC 1123 label, as namespace, Service and port names are. */
export function validLabel(s: unknown): s is string {
  return typeof s === "string" && s.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(s);
}

/** A table name of ours: a letter, then letters, digits, `-` or `_`, 32 at most. */
export function validTableName(s: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(s);
}

export type L4Proto = "tcp" | "udp" | "sctp";

/** The nftables protocol of a Kubernetes protocol name (TCP when unset). */
export function l4proto(protocol: unknown): L4Proto | undefined {
  switch (protocol ?? "TCP") {
    case "TCP":
      return "tcp";
    case "UDP":
      return "udp";
    case "SCTP":
      return "sctp";
    default:
      return undefined;
  }
}
