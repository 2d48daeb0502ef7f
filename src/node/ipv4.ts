/**
 * IPv4 addresses and networks as numbers: parsing dotted quads strictly, and
 * whether two networks overlap. Shared by the pod network (a CIDR a route of
 * the machine already covers) and the routes to other nodes' pod CIDRs.
 */

/** A dotted quad (each part 0–255, at most three digits) as an unsigned number. */
export function ipv4ToInt(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

export const intToIpv4 = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join(".");

export interface Ipv4Net {
  /** The network address (host bits cleared), unsigned. */
  network: number;
  prefix: number;
}

const maskOf = (prefix: number) => (prefix === 0 ? 0 : ~((1 << (32 - prefix)) - 1) >>> 0);

/** `a.b.c.d/n` (or a bare address, as /32) with its host bits cleared; undefined if malformed. */
export function parseIpv4Net(text: string): Ipv4Net | undefined {
  const [addr, bits, extra] = text.split("/");
  if (addr === undefined || extra !== undefined) return undefined;
  const base = ipv4ToInt(addr);
  if (bits !== undefined && !/^(\d|[12]\d|3[0-2])$/.test(bits)) return undefined;
  const prefix = bits === undefined ? 32 : Number(bits);
  return base === undefined ? undefined : { network: (base & maskOf(prefix)) >>> 0, prefix };
}

export const formatIpv4Net = (n: Ipv4Net) => `${intToIpv4(n.network)}/${n.prefix}`;

/** True when the two networks share an address (one contains the other). */
export function netsOverlap(a: Ipv4Net, b: Ipv4Net): boolean {
  const mask = maskOf(Math.min(a.prefix, b.prefix));
  return (a.network & mask) >>> 0 === (b.network & mask) >>> 0;
}
