/**
 * The cluster zone as records, built whole from the Services and
 * EndpointSlices the cache holds, as CoreDNS's kubernetes plugin (and the
 * kube-dns specification, github.com/kubernetes/dns docs/specification.md)
 * serves them under `<domain>`:
 *
 * - `<svc>.<ns>.svc` A → the ClusterIP; headless (`clusterIP: None`): one A
 *   per ready endpoint address; ExternalName: a CNAME to `externalName`.
 * - `<host>.<svc>.<ns>.svc` A → an endpoint of a headless Service, `<host>`
 *   the endpoint's `hostname` (a pod with hostname + subdomain naming the
 *   Service) or else its address with dashes (`10-88-0-5`), as CoreDNS.
 * - `_<port>._<proto>.<svc>.<ns>.svc` SRV for each named port: to the
 *   Service's name (ClusterIP), or one per endpoint to its `<host>` name.
 * - PTR for every ClusterIP (→ the Service) and endpoint address (→ its
 *   `<host>.<svc>…` name); the first Service by namespace/name wins an
 *   address that several have.
 *
 * "Ready" is EndpointSlice's: `conditions.ready` absent counts as ready. The
 * names every record sits under (`svc.<domain>`, `<ns>.svc.<domain>`, …) are
 * kept too, so a query for one gets NODATA rather than NXDOMAIN.
 */
import type { EndpointSliceObject, ServiceObject } from "../nft/types.js";
import { SERVICE_NAME_LABEL } from "../nft/types.js";

export type ZoneRecord =
  | { type: "A"; data: string }
  | { type: "CNAME"; data: string }
  | { type: "SRV"; data: { priority: number; weight: number; port: number; target: string } };

export interface Zone {
  domain: string;
  /** Lower-case names without the trailing dot → their records. */
  records: ReadonlyMap<string, ZoneRecord[]>;
  /** Names that exist (have records, or records below them), the domain included. */
  names: ReadonlySet<string>;
  /** Reverse names (`5.0.88.10.in-addr.arpa`) → the name they point to. */
  ptr: ReadonlyMap<string, string>;
}

interface ServiceSpec {
  clusterIP?: string;
  clusterIPs?: string[];
  externalName?: string;
  type?: string;
  ports?: { name?: string; port?: number; protocol?: string }[];
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export const isIPv4 = (s: unknown): s is string => typeof s === "string" && IPV4.test(s);

/** `10.88.0.5` → `5.0.88.10.in-addr.arpa`. */
export function reverseName(ip: string): string {
  return `${ip.split(".").reverse().join(".")}.in-addr.arpa`;
}

/** `10.88.0.5` → `10-88-0-5`: CoreDNS's name for an endpoint without a hostname. */
export const dashed = (ip: string) => ip.replaceAll(".", "-");

class ZoneBuilder {
  readonly records = new Map<string, ZoneRecord[]>();
  readonly names = new Set<string>();
  readonly ptr = new Map<string, string>();

  constructor(readonly domain: string) {
    this.names.add(domain);
  }

  add(name: string, rec: ZoneRecord): void {
    const list = this.records.get(name) ?? [];
    if (!list.some((r) => JSON.stringify(r) === JSON.stringify(rec))) list.push(rec);
    this.records.set(name, list);
    for (let n = name; n.length > this.domain.length; n = n.slice(n.indexOf(".") + 1))
      this.names.add(n);
  }

  pointer(ip: string, target: string): void {
    const rev = reverseName(ip);
    if (!this.ptr.has(rev)) this.ptr.set(rev, target);
  }
}

interface Endpoint {
  ip: string;
  host: string;
}

/** The ready IPv4 endpoints of `slices`, each with its DNS host label, and the slices' named ports. */
function endpointsOf(slices: EndpointSliceObject[]) {
  const endpoints: Endpoint[] = [];
  const ports = new Map<string, { name: string; port: number; protocol: string }>();
  for (const slice of slices) {
    if (slice.addressType !== undefined && slice.addressType !== "IPv4") continue;
    for (const p of slice.ports ?? []) {
      if (!p.name || typeof p.port !== "number") continue;
      const protocol = (p.protocol ?? "TCP").toLowerCase();
      ports.set(`${p.name}/${protocol}`, { name: p.name, port: p.port, protocol });
    }
    for (const ep of slice.endpoints ?? []) {
      if (ep.conditions?.ready === false) continue;
      const hostname = (ep as { hostname?: string }).hostname;
      for (const ip of ep.addresses ?? [])
        if (isIPv4(ip) && !endpoints.some((e) => e.ip === ip))
          endpoints.push({ ip, host: hostname || dashed(ip) });
    }
  }
  return { endpoints, ports: [...ports.values()] };
}

function addService(z: ZoneBuilder, svc: ServiceObject, slices: EndpointSliceObject[]): void {
  const ns = svc.metadata.namespace;
  const name = svc.metadata.name;
  if (!ns || !name) return;
  const base = `${name}.${ns}.svc.${z.domain}`.toLowerCase();
  const spec = (svc.spec ?? {}) as ServiceSpec;
  if (spec.type === "ExternalName") {
    if (spec.externalName)
      z.add(base, { type: "CNAME", data: spec.externalName.replace(/\.$/, "").toLowerCase() });
    return;
  }
  if (spec.clusterIP === "None") {
    const { endpoints, ports } = endpointsOf(slices);
    for (const ep of endpoints) {
      const host = `${ep.host}.${base}`.toLowerCase();
      z.add(base, { type: "A", data: ep.ip });
      z.add(host, { type: "A", data: ep.ip });
      z.pointer(ep.ip, host);
      for (const p of ports)
        z.add(`_${p.name}._${p.protocol}.${base}`.toLowerCase(), {
          type: "SRV",
          data: { priority: 0, weight: 100, port: p.port, target: host },
        });
    }
    return;
  }
  const ips = (spec.clusterIPs?.length ? spec.clusterIPs : [spec.clusterIP]).filter(isIPv4);
  if (ips.length === 0) return;
  for (const ip of ips) {
    z.add(base, { type: "A", data: ip });
    z.pointer(ip, base);
  }
  for (const p of spec.ports ?? [])
    if (p.name && typeof p.port === "number")
      z.add(`_${p.name}._${(p.protocol ?? "TCP").toLowerCase()}.${base}`.toLowerCase(), {
        type: "SRV",
        data: { priority: 0, weight: 100, port: p.port, target: base },
      });
}

/** PTRs for the endpoints of a Service with a ClusterIP (after every headless Service's names). */
function addEndpointPointers(z: ZoneBuilder, svc: ServiceObject, slices: EndpointSliceObject[]) {
  const base = `${svc.metadata.name}.${svc.metadata.namespace}.svc.${z.domain}`.toLowerCase();
  for (const ep of endpointsOf(slices).endpoints) z.pointer(ep.ip, `${ep.host}.${base}`);
}

/** The zone of `domain` from every Service and every EndpointSlice that names its Service. */
export function buildZone(
  domain: string,
  services: readonly ServiceObject[],
  slices: readonly EndpointSliceObject[],
): Zone {
  const z = new ZoneBuilder(domain.toLowerCase());
  z.names.add(`svc.${z.domain}`);
  z.names.add(`pod.${z.domain}`);
  const byService = new Map<string, EndpointSliceObject[]>();
  for (const s of slices) {
    const svc = s.metadata.labels?.[SERVICE_NAME_LABEL];
    if (!svc) continue;
    const key = `${s.metadata.namespace}/${svc}`;
    byService.set(key, [...(byService.get(key) ?? []), s]);
  }
  const sorted = [...services].sort((a, b) =>
    `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(
      `${b.metadata.namespace}/${b.metadata.name}`,
    ),
  );
  const slicesOf = (svc: ServiceObject) =>
    byService.get(`${svc.metadata.namespace}/${svc.metadata.name}`) ?? [];
  const headless = (svc: ServiceObject) =>
    (svc.spec as ServiceSpec | undefined)?.clusterIP === "None";
  // PTRs, first come first kept: ClusterIPs, then headless endpoints (a
  // StatefulSet pod's own name), then the endpoints of the other Services.
  for (const svc of sorted) if (!headless(svc)) addService(z, svc, slicesOf(svc));
  for (const svc of sorted) if (headless(svc)) addService(z, svc, slicesOf(svc));
  for (const svc of sorted)
    if (!headless(svc) && (svc.spec as ServiceSpec | undefined)?.type !== "ExternalName")
      addEndpointPointers(z, svc, slicesOf(svc));
  return { domain: z.domain, records: z.records, names: z.names, ptr: z.ptr };
}
