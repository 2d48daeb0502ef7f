/**
 * ClusterIP allocation for Services from the service CIDR (default
 * `127.2.0.0/16`: loopback, so a proxy can listen on every address without
 * setup). The allocation map is not stored on its own: it is the set of
 * clusterIPs of the Services that exist, read at each create. What makes it
 * unique is that reading that set and storing the new Service happen under one
 * lock per storage backend, so two concurrent creates never get the same
 * address. A requested `clusterIP` must be in range and free (422 with
 * kube's wording); otherwise the lowest free address is taken.
 *
 * The lock is in this process: apiservers sharing one etcd would need the
 * allocation in storage (kube's IPAddress objects) — not needed while one
 * apiserver serves a cluster.
 */
import { InternalError, InvalidError, invalidValue } from "../../api/errors.js";
import type { KubeObject } from "../../api/types.js";
import type { RequestContext } from "../handlers/context.js";
import type { ResourceType } from "./resource-type.js";

export const DEFAULT_SERVICE_CIDR = "127.2.0.0/16";

export interface Ipv4Range {
  cidr: string;
  /** First and last assignable address (network and broadcast excluded), as integers. */
  first: number;
  last: number;
}

export function parseIpv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  if (m.slice(1).some((o) => o.length > 1 && o.startsWith("0"))) return undefined;
  return octets.reduce((n, o) => n * 256 + o, 0);
}

export function formatIpv4(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join(".");
}

export function parseCidr(cidr: string): Ipv4Range {
  const [ip, bits] = cidr.split("/");
  const base = parseIpv4(ip ?? "");
  const prefix = Number(bits);
  if (base === undefined || !Number.isInteger(prefix) || prefix < 8 || prefix > 30)
    throw new Error(`invalid service CIDR ${JSON.stringify(cidr)}: want an IPv4 /8 to /30`);
  const size = 2 ** (32 - prefix);
  const network = base - (base % size);
  return { cidr: `${formatIpv4(network)}/${prefix}`, first: network + 1, last: network + size - 2 };
}

export function inRange(range: Ipv4Range, ip: string): boolean {
  const n = parseIpv4(ip);
  return n !== undefined && n >= range.first && n <= range.last;
}

/** The lowest address of the range not in `used`, or undefined when the range is full. */
export function lowestFree(range: Ipv4Range, used: Set<string>): string | undefined {
  for (let n = range.first; n <= range.last; n++) {
    const ip = formatIpv4(n);
    if (!used.has(ip)) return ip;
  }
  return undefined;
}

const locks = new WeakMap<object, Promise<unknown>>();

/** Runs `fn` after every earlier call for the same `key` has finished. */
export function serialized<T>(key: object, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  locks.set(
    key,
    run.catch(() => undefined),
  );
  return run;
}

interface ServiceSpecIps {
  clusterIP?: string;
  clusterIPs?: string[];
}

function invalid(obj: KubeObject, ip: string, why: string): InvalidError {
  return new InvalidError({ group: "", kind: "Service", name: obj.metadata.name ?? "" }, [
    invalidValue("spec.clusterIP", ip, why),
  ]);
}

/** The `storeCreate` hook of Services: allocates (or checks) the ClusterIP, then stores. */
export function clusterIpAllocator(range: Ipv4Range): NonNullable<ResourceType["storeCreate"]> {
  return (ctx: RequestContext, obj: KubeObject, store) =>
    serialized(ctx.server.backend, async () => {
      const spec = (obj.spec ?? {}) as ServiceSpecIps;
      if (spec.clusterIP === "None") return store(obj);
      const existing = await ctx.server.store.list(ctx.type, {});
      const used = new Set(
        existing.items.map((s) => ((s.spec ?? {}) as ServiceSpecIps).clusterIP ?? ""),
      );
      let ip = spec.clusterIP;
      if (ip) {
        if (!inRange(range, ip))
          throw invalid(
            obj,
            ip,
            `provided IP is not in the valid range. The range of valid IPs is ${range.cidr}`,
          );
        if (used.has(ip)) throw invalid(obj, ip, "provided IP is already allocated");
      } else {
        ip = lowestFree(range, used);
        if (!ip) throw new InternalError("failed to allocate a serviceIP: range is full");
      }
      obj.spec = { ...spec, clusterIP: ip, clusterIPs: [ip] };
      return store(obj);
    });
}
