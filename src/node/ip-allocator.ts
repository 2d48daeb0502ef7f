/**
 * Pod IPs: each pod gets its own loopback address from the node's pod CIDR
 * (inside 127.0.0.0/8, where every address already reaches this machine), so
 * two pods can both listen on 2379. The allocator hands out the lowest free
 * address, skipping the network and broadcast addresses; the agent rebuilds its
 * set of used addresses from the pods' state files on start, so a pod keeps its
 * address across agent restarts.
 */

export interface Cidr {
  /** The network address as an unsigned 32-bit number. */
  base: number;
  prefix: number;
  size: number;
}

export function ipToNumber(ip: string): number {
  const parts = ip.split(".");
  if (parts.length !== 4) throw new Error(`${JSON.stringify(ip)} is not an IPv4 address`);
  let n = 0;
  for (const p of parts) {
    const v = Number(p);
    if (!/^\d{1,3}$/.test(p) || v > 255)
      throw new Error(`${JSON.stringify(ip)} is not an IPv4 address`);
    n = n * 256 + v;
  }
  return n;
}

export function numberToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** Parses `a.b.c.d/n`; refuses ranges outside 127.0.0.0/8 (pods listen on loopback). */
export function parseCidr(text: string): Cidr {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(text);
  if (!m) throw new Error(`pod CIDR ${JSON.stringify(text)} must look like 127.1.0.0/16`);
  const prefix = Number(m[2]);
  if (prefix < 8 || prefix > 30)
    throw new Error(`pod CIDR ${JSON.stringify(text)}: the prefix must be between /8 and /30`);
  const size = 2 ** (32 - prefix);
  const base = ipToNumber(m[1]!) - (ipToNumber(m[1]!) % size);
  if (numberToIp(base) !== m[1])
    throw new Error(
      `pod CIDR ${JSON.stringify(text)} has host bits set; did you mean ${numberToIp(base)}/${prefix}?`,
    );
  if (base >>> 24 !== 127)
    throw new Error(
      `pod CIDR ${JSON.stringify(text)} must lie inside 127.0.0.0/8: pods listen on loopback addresses of this machine`,
    );
  return { base, prefix, size };
}

export function cidrContains(cidr: Cidr, ip: string): boolean {
  try {
    const n = ipToNumber(ip);
    return n >= cidr.base && n < cidr.base + cidr.size;
  } catch {
    return false;
  }
}

export class IpAllocator {
  private readonly used = new Set<number>();

  constructor(readonly cidr: Cidr) {}

  /** Marks an address as taken (from a state file); false when outside the CIDR. */
  reserve(ip: string): boolean {
    if (!cidrContains(this.cidr, ip)) return false;
    this.used.add(ipToNumber(ip));
    return true;
  }

  /** The lowest free address; throws when the range is full. */
  allocate(): string {
    const first = this.cidr.base + 1;
    const last = this.cidr.base + this.cidr.size - 2;
    for (let n = first; n <= last; n++) {
      if (!this.used.has(n)) {
        this.used.add(n);
        return numberToIp(n);
      }
    }
    throw new Error(
      `no free pod IP in ${numberToIp(this.cidr.base)}/${this.cidr.prefix}: all ${last - first + 1} addresses are in use`,
    );
  }

  release(ip: string): void {
    if (cidrContains(this.cidr, ip)) this.used.delete(ipToNumber(ip));
  }

  get inUse(): number {
    return this.used.size;
  }
}
