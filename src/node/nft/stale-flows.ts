/**
 * Which connection-tracking entries a rebuild of the Service rules leaves
 * stale, as kube-proxy's conntrack cleanup decides it: a pure function of the
 * service ports before and after (`servicePorts`, as the ruleset wrote them).
 * DNAT happens on a flow's first packet only; conntrack rewrites the rest. A
 * TCP connection ends, and a new one is a new flow that meets the new rules;
 * a UDP "flow" (the same 5-tuple) lasts as long as the client keeps sending,
 * so it has to be deleted for its next packet to meet them:
 *
 * - a service port whose endpoints went from none (or from not existing) to
 *   some: every flow to its ClusterIP:port and NodePort — sent before the
 *   rules existed, they were routed elsewhere un-NATed and would stay so;
 * - an endpoint removed: the flows NATed from the ClusterIP:port (or the
 *   NodePort) to it, so the client's next packet picks a live endpoint;
 * - a service port gone (or its ClusterIP changed): every flow to it;
 * - a NodePort new to a port that has endpoints: every flow to it.
 *
 * SCTP is treated as UDP: an association to a vanished endpoint never sees an
 * ABORT, and the client's new INIT on the same ports would match the old entry
 * (kubernetes#70020). TCP needs nothing.
 */
import type { ServicePortRule } from "./service-ports.js";
import type { L4Proto } from "./validate.js";

/** The protocols whose flows outlive their endpoint. */
const STALE_PRONE = new Set<L4Proto>(["udp", "sctp"]);

/** Flows to delete: `conntrack -D` with the original destination, its port, and the DNAT target. */
export interface FlowFilter {
  protocol: L4Proto;
  /** The original destination (a ClusterIP); none for a NodePort, which any local address serves. */
  destination?: string;
  /** The original destination port: the service port, or the NodePort. */
  port: number;
  /** Only flows DNATed to this endpoint (the reply's source); none: every flow, NATed or not. */
  endpoint?: { ip: string; port: number };
  /** The service port and the reason, for logs. */
  why: string;
}

/** The flows made stale by going from `before` to `after`, each once, in the order of `after`. */
export function staleFlows(before: ServicePortRule[], after: ServicePortRule[]): FlowFilter[] {
  const out = new Map<string, FlowFilter>();
  const add = (f: FlowFilter) => {
    const to = f.endpoint ? `${f.endpoint.ip}:${f.endpoint.port}` : "*";
    const id = `${f.protocol} ${f.destination ?? "*"}:${f.port} ${to}`;
    if (!out.has(id)) out.set(id, f);
  };
  /** Every flow to the ClusterIP:port and the NodePort of `sp`. */
  const all = (sp: ServicePortRule, why: string) => {
    add({ protocol: sp.protocol, destination: sp.clusterIP, port: sp.port, why });
    if (sp.nodePort !== undefined) add({ protocol: sp.protocol, port: sp.nodePort, why });
  };
  const previous = new Map(
    before.filter((sp) => STALE_PRONE.has(sp.protocol)).map((sp) => [sp.key, sp]),
  );
  for (const sp of after) {
    if (!STALE_PRONE.has(sp.protocol)) continue;
    const was = previous.get(sp.key);
    const same = was?.clusterIP === sp.clusterIP ? was : undefined;
    if (same) previous.delete(sp.key);
    if (!same || same.endpoints.length === 0) {
      if (sp.endpoints.length > 0) all(sp, `${sp.key}: has endpoints now`);
      continue;
    }
    const kept = new Set(sp.endpoints.map((e) => `${e.ip}:${e.port}`));
    for (const ep of same.endpoints) {
      if (kept.has(`${ep.ip}:${ep.port}`)) continue;
      const why = `${sp.key}: endpoint ${ep.ip}:${ep.port} removed`;
      const endpoint = { ip: ep.ip, port: ep.port };
      add({ protocol: sp.protocol, destination: sp.clusterIP, port: sp.port, endpoint, why });
      if (same.nodePort !== undefined)
        add({ protocol: sp.protocol, port: same.nodePort, endpoint, why });
    }
    // A NodePort new to a port with endpoints: packets sent to it before met no listener, un-NATed.
    if (sp.endpoints.length > 0 && sp.nodePort !== undefined && sp.nodePort !== same.nodePort)
      add({ protocol: sp.protocol, port: sp.nodePort, why: `${sp.key}: new node port` });
  }
  for (const sp of previous.values()) all(sp, `${sp.key}: gone`);
  return [...out.values()];
}
