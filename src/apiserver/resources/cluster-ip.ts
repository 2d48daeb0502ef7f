/**
 * ClusterIP allocation for Services from the service CIDR (default
 * `10.96.0.0/16`, kube's: addresses the node's nftables rules DNAT for pods
 * in their own network namespaces and for the host). The allocation map is
 * not stored on its own: it is the set of clusterIPs of the Services that
 * exist, read at each create, plus the addresses claimed for Services being
 * created right now (whose Services are not stored yet). A claim is a guarded
 * update of one storage key, so apiservers sharing one etcd never hand out
 * the same address: of two racing claims one fails its revision check and
 * reads again. Within a process the claims also run under one lock per
 * backend, so they do not contend with each other. A requested `clusterIP`
 * must be in range and free (422 with kube's wording); otherwise the lowest
 * free address is taken, but for the tenth of the range: it is the cluster DNS
 * Service's (kubeadm's 10.96.0.10, `kube-dns` in kube-system, which asks for
 * it), so no Service created before it may take it. It goes to a Service
 * without a request only when nothing else is free.
 */

import type { KubeObject } from "../../api/index.js";
import { InternalError, InvalidError, invalidValue } from "../../api/index.js";
import type { Backend, KeyValue } from "../../storage/index.js";
import { KeyExistsError, KeyNotFoundError, RevisionMismatchError } from "../../storage/index.js";
import type { RequestContext } from "../handlers/context.js";
import type { ResourceType } from "./resource-type.js";

/** Two Hearths on one machine need different ones (each table serves only its own). */
export const DEFAULT_SERVICE_CIDR = "10.96.0.0/16";

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

/** The address kept for the cluster DNS Service: the tenth of the range (network address + 10). */
export function clusterDnsAddress(range: Ipv4Range): string {
  return formatIpv4(range.first - 1 + 10);
}

/** The lowest address of the range not in `used` (the cluster DNS one last), or undefined when full. */
export function lowestFree(range: Ipv4Range, used: Set<string>): string | undefined {
  const dns = clusterDnsAddress(range);
  for (let n = range.first; n <= range.last; n++) {
    const ip = formatIpv4(n);
    if (!used.has(ip) && ip !== dns) return ip;
  }
  return used.has(dns) || !inRange(range, dns) ? undefined : dns;
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

/** Outside every resource's collection: the addresses claimed last, newest last. */
export const CLAIMS_KEY = "/registry/ranges/serviceips";
/** Claims remembered: far more than creates in flight at once across apiservers. */
const RECENT_CLAIMS = 256;
/** A claim is released once its Service is stored (or refused); one left by a crash expires. */
const CLAIM_PENDING_MS = 10_000;
const CLAIM_ATTEMPTS = 20;

interface Claim {
  ip: string;
  /** `namespace/name` of the Service it is for: re-creating that Service may reuse it. */
  service: string;
  at: number;
}

/**
 * Claims the address `choose` picks from those not in use, against every apiserver on
 * `backend`: in use are the Services' addresses and the claims still pending for others.
 */
async function claim(
  backend: Backend,
  service: string,
  inUse: () => Promise<Set<string>>,
  choose: (used: Set<string>) => string,
): Promise<Claim> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const stored = await backend.get(CLAIMS_KEY);
    const claims: Claim[] = stored ? (JSON.parse(stored.value) as { recent: Claim[] }).recent : [];
    const used = await inUse();
    const now = Date.now();
    for (const c of claims)
      if (c.service !== service && now - c.at < CLAIM_PENDING_MS) used.add(c.ip);
    const mine = { ip: choose(used), service, at: now };
    const live = claims.filter((c) => now - c.at < CLAIM_PENDING_MS);
    if (await writeClaims(backend, stored, [...live, mine].slice(-RECENT_CLAIMS))) return mine;
  }
  throw new InternalError("failed to allocate a serviceIP: too many concurrent allocations");
}

/** Drops `mine` from the claims once its Service is stored or refused; best effort. */
async function release(backend: Backend, mine: Claim): Promise<void> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const stored = await backend.get(CLAIMS_KEY);
    if (!stored) return;
    const claims = (JSON.parse(stored.value) as { recent: Claim[] }).recent;
    const rest = claims.filter(
      (c) => !(c.ip === mine.ip && c.at === mine.at && c.service === mine.service),
    );
    if (rest.length === claims.length || (await writeClaims(backend, stored, rest))) return;
  }
}

/** Replaces the claims if they are still at `stored`'s revision; false when another apiserver wrote first. */
async function writeClaims(
  backend: Backend,
  stored: KeyValue | undefined,
  recent: Claim[],
): Promise<boolean> {
  const value = JSON.stringify({ recent });
  try {
    if (stored) await backend.update(CLAIMS_KEY, value, stored.modRevision);
    else await backend.create(CLAIMS_KEY, value);
    return true;
  } catch (e) {
    if (
      e instanceof RevisionMismatchError ||
      e instanceof KeyExistsError ||
      e instanceof KeyNotFoundError
    )
      return false;
    throw e;
  }
}

/** The `storeCreate` hook of Services: allocates (or checks) the ClusterIP, then stores. */
export function clusterIpAllocator(range: Ipv4Range): NonNullable<ResourceType["storeCreate"]> {
  return (ctx: RequestContext, obj: KubeObject, store) =>
    serialized(ctx.server.backend, async () => {
      const spec = (obj.spec ?? {}) as ServiceSpecIps;
      if (spec.clusterIP === "None") return store(obj);
      const inUse = async () => {
        const existing = await ctx.server.store.list(ctx.type, {});
        return new Set(
          existing.items.map((s) => ((s.spec ?? {}) as ServiceSpecIps).clusterIP ?? ""),
        );
      };
      const service = `${obj.metadata.namespace ?? ""}/${obj.metadata.name ?? ""}`;
      const mine = await claim(ctx.server.backend, service, inUse, (used) => {
        const requested = spec.clusterIP;
        if (requested) {
          if (!inRange(range, requested))
            throw invalid(
              obj,
              requested,
              `provided IP is not in the valid range. The range of valid IPs is ${range.cidr}`,
            );
          if (used.has(requested))
            throw invalid(obj, requested, "provided IP is already allocated");
          return requested;
        }
        const free = lowestFree(range, used);
        if (!free) throw new InternalError("failed to allocate a serviceIP: range is full");
        return free;
      });
      obj.spec = { ...spec, clusterIP: mine.ip, clusterIPs: [mine.ip] };
      try {
        return await store(obj);
      } finally {
        await release(ctx.server.backend, mine).catch(() => undefined);
      }
    });
}
