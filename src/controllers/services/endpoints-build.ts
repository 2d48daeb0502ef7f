/**
 * What a Service's Endpoints and EndpointSlices should hold, a pure function of
 * the Service and the pods its selector matches, following kube's endpoints and
 * endpointslice controllers: a pod counts once it has a podIP and while it has not
 * finished; a named `targetPort` resolves through the pod's container ports
 * (a pod without it is left out of that port); pods are grouped by the ports
 * they resolve to, one Endpoints subset and one EndpointSlice per group. Ready
 * pods go to `addresses`, others to `notReadyAddresses` (all to `addresses` with
 * `publishNotReadyAddresses`). Terminating pods leave Endpoints but stay in slices
 * with `terminating: true`. A slice's name is the Service's plus a hash of its
 * ports, so rewriting it is idempotent.
 */
import { createHash } from "node:crypto";
import type {
  EndpointAddress,
  EndpointPort,
  EndpointSubset,
  PodView,
  Service,
  ServicePort,
  SliceEndpoint,
} from "./types.js";

export interface DesiredSlice {
  name: string;
  ports: EndpointPort[];
  endpoints: SliceEndpoint[];
}

export interface Desired {
  subsets: EndpointSubset[];
  slices: DesiredSlice[];
}

export function isPodReady(pod: PodView): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
}

/** The pod's port for a service port: the number, or the container port of that name. */
export function resolveTargetPort(pod: PodView, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === "number") return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = port.protocol ?? "TCP";
  for (const c of pod.spec?.containers ?? [])
    for (const p of c.ports ?? [])
      if (p.name === target && (p.protocol ?? "TCP") === protocol) return p.containerPort;
  return undefined;
}

function podPorts(svc: Service, pod: PodView): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const port = resolveTargetPort(pod, sp);
    if (port === undefined) continue;
    out.push({
      ...(sp.name !== undefined ? { name: sp.name } : {}),
      port,
      protocol: sp.protocol ?? "TCP",
      ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
    });
  }
  return out.sort((a, b) => (a.name ?? "").localeCompare(b.name ?? "") || a.port - b.port);
}

/** The slice name for a port set: `<service>-<5 hex digits of its hash>`. */
export function sliceName(service: string, ports: EndpointPort[]): string {
  const hash = createHash("sha256").update(JSON.stringify(ports)).digest("hex").slice(0, 5);
  return `${service}-${hash}`;
}

function address(svc: Service, pod: PodView): EndpointAddress {
  const hostname =
    pod.spec?.hostname && pod.spec.subdomain === svc.metadata.name ? pod.spec.hostname : undefined;
  return {
    ip: pod.status!.podIP!,
    ...(hostname ? { hostname } : {}),
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: {
      kind: "Pod",
      namespace: pod.metadata.namespace ?? "",
      name: pod.metadata.name ?? "",
      uid: pod.metadata.uid ?? "",
    },
  };
}

const byIp = (a: { ip: string }, b: { ip: string }) =>
  a.ip.localeCompare(b.ip, "en", { numeric: true });

interface Group {
  ports: EndpointPort[];
  ready: EndpointAddress[];
  notReady: EndpointAddress[];
  endpoints: SliceEndpoint[];
}

export function desiredEndpoints(svc: Service, pods: PodView[]): Desired {
  const publishAll = svc.spec?.publishNotReadyAddresses === true;
  const wantsPorts = (svc.spec?.ports ?? []).length > 0;
  const groups = new Map<string, Group>();
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (!pod.status?.podIP || phase === "Succeeded" || phase === "Failed") continue;
    const ports = podPorts(svc, pod);
    if (wantsPorts && ports.length === 0) continue;
    const key = JSON.stringify(ports);
    const group = groups.get(key) ?? { ports, ready: [], notReady: [], endpoints: [] };
    groups.set(key, group);
    const terminating = pod.metadata.deletionTimestamp !== undefined;
    const ready = isPodReady(pod);
    const addr = address(svc, pod);
    if (!terminating || publishAll) (ready || publishAll ? group.ready : group.notReady).push(addr);
    const { ip, ...rest } = addr;
    group.endpoints.push({
      addresses: [ip],
      conditions: { ready: publishAll || (ready && !terminating), serving: ready, terminating },
      ...rest,
    });
  }
  const subsets: EndpointSubset[] = [];
  const slices: DesiredSlice[] = [];
  const name = svc.metadata.name ?? "";
  for (const g of [...groups.values()].sort((a, b) =>
    sliceName(name, a.ports).localeCompare(sliceName(name, b.ports)),
  )) {
    if (g.ready.length + g.notReady.length > 0)
      subsets.push({
        ...(g.ready.length ? { addresses: g.ready.sort(byIp) } : {}),
        ...(g.notReady.length ? { notReadyAddresses: g.notReady.sort(byIp) } : {}),
        ...(g.ports.length ? { ports: g.ports } : {}),
      });
    g.endpoints.sort((a, b) => byIp({ ip: a.addresses[0]! }, { ip: b.addresses[0]! }));
    slices.push({ name: sliceName(name, g.ports), ports: g.ports, endpoints: g.endpoints });
  }
  // With no endpoints at all kube keeps one empty slice, so consumers see the Service.
  if (slices.length === 0) slices.push({ name: sliceName(name, []), ports: [], endpoints: [] });
  return { subsets, slices };
}
