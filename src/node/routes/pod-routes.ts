/**
 * Which routes a node keeps to the other nodes' pods: a pure decision over the
 * Nodes of the cache, so the route controller and the nftables rules (its set
 * of routed CIDRs) agree on it without asking each other.
 *
 * A Node is routed, `<spec.podCIDR> via <its InternalIP>`, when it is not this
 * node, its pod CIDR is an IPv4 network of /8 or longer (no default route,
 * nothing under loopback) that overlaps neither this node's CIDR nor one
 * already routed, and its InternalIP is an IPv4 address a gateway may be (not
 * loopback, not inside any pod CIDR). Nodes are taken oldest first (then by
 * name), so a newer Node claiming an overlapping CIDR never takes the route
 * of an older one. Nodes are cluster-scoped and only the platform writes them
 * (docs/networking.md, "Routes between nodes"): nothing here is data a tenant
 * could set.
 */
import type { KubeObject, Node } from "../../api/index.js";
import type { Predicate } from "../../runtime/index.js";
import { formatIpv4Net, type Ipv4Net, netsOverlap, parseIpv4Net } from "../ipv4.js";

export interface PodRoute {
  /** The other node's pod CIDR, normalised. */
  cidr: string;
  /** The other node's InternalIP: the gateway. */
  via: string;
  /** The Node it is for (for messages). */
  node: string;
}

export interface RoutePlan {
  routes: PodRoute[];
  /** Nodes left out, and why (a Node without a pod CIDR is not mentioned). */
  skipped: string[];
}

export interface RoutingSelf {
  /** This node's name: its own Node is never routed. */
  name: string;
  /** This node's pod CIDR: never routed elsewhere, nor anything overlapping it. */
  podCIDR: string;
}

/** The shortest prefix routed: a Node never becomes the default route or a /7 of the Internet. */
export const MIN_ROUTED_PREFIX = 8;

function internalIP(node: Node): string | undefined {
  return node.status?.addresses?.find((a) => a.type === "InternalIP")?.address;
}

/**
 * Passes a Node update only when what routing reads changed (its pod CIDR or
 * InternalIP), so a heartbeat's status refresh does not redo the routes and
 * the nftables table every minute for every node. Creates and deletes pass.
 */
export const routingChanged: Predicate = {
  update: (old: KubeObject, obj: KubeObject) =>
    (old as Node).spec?.podCIDR !== (obj as Node).spec?.podCIDR ||
    internalIP(old as Node) !== internalIP(obj as Node),
};

function byAge(a: Node, b: Node): number {
  const [ta, tb] = [a.metadata.creationTimestamp ?? "", b.metadata.creationTimestamp ?? ""];
  if (ta !== tb) return ta < tb ? -1 : 1;
  const [na, nb] = [a.metadata.name ?? "", b.metadata.name ?? ""];
  return na < nb ? -1 : na > nb ? 1 : 0;
}

const inside = (ip: Ipv4Net, nets: Ipv4Net[]) => nets.some((n) => netsOverlap(n, ip));

/** The routes to keep, given every Node and this node's own name and pod CIDR. */
export function podRoutes(nodes: readonly Node[], self: RoutingSelf): RoutePlan {
  const own = parseIpv4Net(self.podCIDR);
  if (!own) throw new Error(`invalid pod CIDR ${JSON.stringify(self.podCIDR)}`);
  const skipped: string[] = [];
  const candidates = [...nodes]
    .sort(byAge)
    .filter((n) => n.metadata.name !== self.name && n.spec?.podCIDR)
    .map((n) => ({ node: n, name: n.metadata.name ?? "", net: parseIpv4Net(n.spec!.podCIDR!) }));
  const podNets = [own, ...candidates.flatMap((c) => (c.net ? [c.net] : []))];
  const routes: PodRoute[] = [];
  const routed: Ipv4Net[] = [];
  for (const { node, name, net } of candidates) {
    const cidr = node.spec!.podCIDR!;
    const why = (reason: string) => skipped.push(`Node ${name}: pod CIDR ${cidr} ${reason}`);
    if (!net || !/^\d+\.\d+\.\d+\.\d+\/\d+$/.test(cidr)) {
      why("is not an IPv4 network");
      continue;
    }
    if (net.prefix < MIN_ROUTED_PREFIX || net.network >>> 24 === 127 || net.network >>> 24 === 0) {
      why(`is not routed (loopback, 0.0.0.0/8 or shorter than /${MIN_ROUTED_PREFIX})`);
      continue;
    }
    if (netsOverlap(net, own)) {
      why(`overlaps this node's ${self.podCIDR}`);
      continue;
    }
    if (inside(net, routed)) {
      why("overlaps an older Node's");
      continue;
    }
    const via = internalIP(node);
    const gw = via === undefined ? undefined : parseIpv4Net(via);
    if (via === undefined || gw === undefined || via.includes("/")) {
      why(`has no IPv4 InternalIP (${JSON.stringify(via ?? null)})`);
      continue;
    }
    if (gw.network >>> 24 === 127 || gw.network >>> 24 === 0 || inside(gw, podNets)) {
      why(
        `has InternalIP ${via}, which cannot be a gateway (loopback, 0.0.0.0/8 or a pod address)`,
      );
      continue;
    }
    routed.push(net);
    routes.push({ cidr: formatIpv4Net(net), via, node: name });
  }
  return { routes, skipped };
}
