/**
 * Table cells of Services, Endpoints and EndpointSlices, worded as kubectl's
 * printers (`pkg/printers/internalversion`) word them: `80/TCP,443/TCP`,
 * `<none>`, `127.0.0.5:80,127.0.0.6:80 + 2 more...`, `<unset>`.
 */
import type { KubeObject } from "../../api/index.js";

interface ServiceLike {
  spec?: {
    type?: string;
    clusterIP?: string;
    externalIPs?: string[];
    ports?: { port?: number; protocol?: string; nodePort?: number }[];
    selector?: Record<string, string>;
  };
}

interface EndpointsLike {
  subsets?: { addresses?: { ip: string }[]; ports?: { port?: number }[] }[];
}

interface SliceLike {
  addressType?: string;
  endpoints?: { addresses?: string[] }[];
  ports?: { port?: number | null; name?: string | null }[];
}

const MAX = 3;

function withMore(list: string[], count: number, empty: string): string {
  const shown = list.slice(0, MAX).join(",");
  if (count > MAX) return `${shown} + ${count - MAX} more...`;
  return shown === "" ? empty : shown;
}

export function servicePorts(o: KubeObject): string {
  const ports = (o as ServiceLike).spec?.ports ?? [];
  if (ports.length === 0) return "<none>";
  return ports
    .map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ""}/${p.protocol ?? "TCP"}`)
    .join(",");
}

export function serviceExternalIp(o: KubeObject): string {
  const ips = (o as ServiceLike).spec?.externalIPs ?? [];
  return ips.length > 0 ? ips.join(",") : "<none>";
}

export function serviceSelector(o: KubeObject): string {
  const sel = (o as ServiceLike).spec?.selector ?? {};
  const keys = Object.keys(sel).sort();
  return keys.length > 0 ? keys.map((k) => `${k}=${sel[k]}`).join(",") : "<none>";
}

export function endpointsCell(o: KubeObject): string {
  const list: string[] = [];
  let count = 0;
  for (const s of (o as EndpointsLike).subsets ?? []) {
    const addresses = s.addresses ?? [];
    const ports = s.ports ?? [];
    if (ports.length === 0) {
      count += addresses.length;
      list.push(...addresses.map((a) => a.ip));
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      list.push(...addresses.map((a) => `${a.ip}:${p.port}`));
    }
  }
  return withMore(list, count, "<none>");
}

export function slicePorts(o: KubeObject): string {
  const ports = (o as SliceLike).ports ?? [];
  const list = ports.map((p) => (p.port != null ? String(p.port) : (p.name ?? "*")));
  return withMore(list, list.length, "<unset>");
}

export function sliceEndpoints(o: KubeObject): string {
  const list = ((o as SliceLike).endpoints ?? []).flatMap((e) => e.addresses ?? []);
  return withMore(list, list.length, "<unset>");
}
