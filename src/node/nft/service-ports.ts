/**
 * Services and EndpointSlices as the ruleset needs them: one entry per valid
 * service port with its ready endpoints (the slice port named as the service
 * port gives the target number, so a named targetPort is already resolved per
 * pod by the endpoints controller), and the names of its chains and sets.
 * Names are hashes of the namespace, name, port name and protocol (and the
 * endpoint), as kube-proxy's: stable across rebuilds, valid nft identifiers
 * whatever the objects say. Anything invalid is skipped and named in `skipped`.
 */
import { createHash } from "node:crypto";
import {
  type EndpointSliceObject,
  type NodeFacts,
  SERVICE_NAME_LABEL,
  type ServiceObject,
  type ServicePortSpec,
} from "./types.js";
import { isLoopback, type L4Proto, l4proto, validIPv4, validLabel, validPort } from "./validate.js";

/** kube's default and largest ClientIP affinity timeout, seconds. */
const DEFAULT_AFFINITY_SECONDS = 10_800;
const MAX_AFFINITY_SECONDS = 86_400;

export interface EndpointRule {
  ip: string;
  port: number;
  /** On this node (`nodeName`), for `externalTrafficPolicy: Local`. */
  local: boolean;
  chain: string;
  /** The ClientIP affinity set of this endpoint, when the Service asks for affinity. */
  affinitySet?: string;
}

export interface ServicePortRule {
  /** `namespace/name:port/protocol`, for comments: made of validated labels only. */
  key: string;
  clusterIP: string;
  port: number;
  protocol: L4Proto;
  nodePort?: number;
  externalLocal: boolean;
  affinitySeconds?: number;
  /** The chain ClusterIP traffic goes to; NodePort traffic too unless `externalLocal`. */
  chain: string;
  /** The chain of NodePort traffic under `externalTrafficPolicy: Local`. */
  externalChain?: string;
  /** Ready endpoints, sorted by address and port. */
  endpoints: EndpointRule[];
}

export interface ServicePorts {
  ports: ServicePortRule[];
  skipped: string[];
}

const hash = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 12);

function affinitySeconds(svc: ServiceObject): number | undefined {
  if (svc.spec?.sessionAffinity !== "ClientIP") return undefined;
  const t = svc.spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
  return Number.isInteger(t) && (t as number) >= 1 && (t as number) <= MAX_AFFINITY_SECONDS
    ? (t as number)
    : DEFAULT_AFFINITY_SECONDS;
}

/** The slices of each Service, by `namespace/name`, from their label. */
function slicesByService(slices: EndpointSliceObject[]): Map<string, EndpointSliceObject[]> {
  const out = new Map<string, EndpointSliceObject[]>();
  for (const s of slices) {
    const svc = s.metadata.labels?.[SERVICE_NAME_LABEL];
    if (!svc || (s.addressType ?? "IPv4") !== "IPv4") continue;
    const key = `${s.metadata.namespace ?? ""}/${svc}`;
    out.set(key, [...(out.get(key) ?? []), s]);
  }
  return out;
}

function endpointsOf(
  sp: ServicePortSpec,
  proto: L4Proto,
  slices: EndpointSliceObject[],
  facts: NodeFacts,
  skipped: string[],
  key: string,
): Omit<EndpointRule, "chain">[] {
  const out = new Map<string, Omit<EndpointRule, "chain">>();
  for (const slice of slices) {
    const target = (slice.ports ?? []).find(
      (p) => (p.name ?? "") === (sp.name ?? "") && l4proto(p.protocol) === proto,
    );
    if (!target) continue;
    if (!validPort(target.port)) {
      skipped.push(`${key}: slice ${slice.metadata.name}: invalid port ${String(target.port)}`);
      continue;
    }
    for (const e of slice.endpoints ?? []) {
      if (e.conditions?.ready === false) continue;
      for (const ip of e.addresses ?? []) {
        if (!validIPv4(ip) || isLoopback(ip)) {
          skipped.push(`${key}: endpoint address ${JSON.stringify(ip)} is no usable IPv4 address`);
          continue;
        }
        const local = !!facts.nodeName && e.nodeName === facts.nodeName;
        const id = `${ip}:${target.port}`;
        out.set(id, { ip, port: target.port, local: local || (out.get(id)?.local ?? false) });
      }
    }
  }
  return [...out.values()].sort((a, b) => compareIP(a.ip, b.ip) || a.port - b.port);
}

function compareIP(a: string, b: string): number {
  const n = (ip: string) => ip.split(".").reduce((acc, o) => acc * 256 + Number(o), 0);
  return n(a) - n(b);
}

/** The valid service ports of `services`, sorted by key, each with its ready endpoints. */
export function servicePorts(
  services: ServiceObject[],
  slices: EndpointSliceObject[],
  facts: NodeFacts,
): ServicePorts {
  const skipped: string[] = [];
  const bySvc = slicesByService(slices);
  const ports: ServicePortRule[] = [];
  for (const svc of services) {
    const { namespace, name } = svc.metadata;
    if (!validLabel(namespace) || !validLabel(name)) {
      skipped.push(`Service ${JSON.stringify(`${namespace}/${name}`)}: invalid name`);
      continue;
    }
    const ip = svc.spec?.clusterIP;
    if (ip === undefined || ip === "" || ip === "None") continue;
    if (!validIPv4(ip) || isLoopback(ip)) {
      skipped.push(
        `Service ${namespace}/${name}: clusterIP ${JSON.stringify(ip)} is no usable IPv4 address`,
      );
      continue;
    }
    const type = svc.spec?.type ?? "ClusterIP";
    const withNodePorts = type === "NodePort" || type === "LoadBalancer";
    const affinity = affinitySeconds(svc);
    for (const sp of svc.spec?.ports ?? []) {
      const proto = l4proto(sp.protocol);
      const portName = sp.name ?? "";
      if (!proto || !validPort(sp.port) || (portName !== "" && !validLabel(portName))) {
        skipped.push(`Service ${namespace}/${name}: invalid port ${JSON.stringify(sp)}`);
        continue;
      }
      const key = `${namespace}/${name}:${portName || sp.port}/${proto}`;
      const id = `${namespace}/${name}/${portName}/${proto}`;
      const nodePort = withNodePorts && validPort(sp.nodePort) ? sp.nodePort : undefined;
      const externalLocal = nodePort !== undefined && svc.spec?.externalTrafficPolicy === "Local";
      const eps = endpointsOf(
        sp,
        proto,
        bySvc.get(`${namespace}/${name}`) ?? [],
        facts,
        skipped,
        key,
      );
      ports.push({
        key,
        clusterIP: ip,
        port: sp.port,
        protocol: proto,
        ...(nodePort !== undefined ? { nodePort } : {}),
        externalLocal,
        ...(affinity !== undefined ? { affinitySeconds: affinity } : {}),
        chain: `svc-${hash(id)}`,
        ...(externalLocal ? { externalChain: `ext-${hash(id)}` } : {}),
        endpoints: eps.map((e) => {
          const epId = `${id}/${e.ip}:${e.port}`;
          return {
            ...e,
            chain: `ep-${hash(epId)}`,
            ...(affinity !== undefined
              ? { affinitySet: `aff-${hash(`${epId}/${affinity}`)}` }
              : {}),
          };
        }),
      });
    }
  }
  ports.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { ports, skipped };
}
