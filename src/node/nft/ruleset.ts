/**
 * The Service rules of one Hearth as one nftables script for one table
 * `ip <table>`, the shapes of kube-proxy's nftables mode (docs/networking.md
 * says why each is there). `nft -f` runs a script as one transaction, so a
 * rebuild is atomic: no packet sees half of it. The script does not delete the
 * table: it creates what is missing, flushes every rule and map, writes them
 * again and deletes the chains and sets the table held that it no longer
 * wants (`existing`, from `nft list table`). So the ClientIP affinity sets, whose
 * elements are the sessions, outlive a rebuild, as in kube-proxy.
 */
import type { HostPortRule } from "./host-ports.js";
import { type ServicePortRule, servicePorts } from "./service-ports.js";
import type { EndpointSliceObject, NodeFacts, ServiceObject, TableContents } from "./types.js";
import { validCIDR, validIPv4, validTableName } from "./validate.js";

export interface Ruleset {
  /** The script for `nft -f -`. */
  text: string;
  /** What was left out, and why (invalid names, addresses, ports). */
  skipped: string[];
  /** The service ports the script holds (those left out are in `skipped`). */
  ports: ServicePortRule[];
}

/** Sets and maps every table has: name → definition. */
const FIXED_SETS: [string, string][] = [
  ["cluster-ips", "type ipv4_addr;"],
  ["node-ips", "type ipv4_addr;"],
  ["hairpin", "type ipv4_addr . ipv4_addr;"],
  // The other nodes' pod CIDRs, routed to them: pod traffic may cross the node to these.
  ["routed-cidrs", "type ipv4_addr; flags interval;"],
];
const FIXED_MAPS: [string, string][] = [
  ["services", "type ipv4_addr . inet_proto . inet_service : verdict;"],
  ["node-ports", "type inet_proto . inet_service : verdict;"],
  ["no-endpoint-services", "type ipv4_addr . inet_proto . inet_service : verdict;"],
  ["no-endpoint-node-ports", "type inet_proto . inet_service : verdict;"],
];
/** Base chains: name → hook. Filter chains run before DNAT (-110), except one after it (-90). */
const BASE_CHAINS: [string, string][] = [
  ["nat-prerouting", "type nat hook prerouting priority dstnat; policy accept;"],
  ["nat-output", "type nat hook output priority -100; policy accept;"],
  ["nat-postrouting", "type nat hook postrouting priority srcnat; policy accept;"],
  ["filter-input", "type filter hook input priority -110; policy accept;"],
  ["filter-forward", "type filter hook forward priority -110; policy accept;"],
  ["filter-output", "type filter hook output priority -110; policy accept;"],
  ["filter-output-post-dnat", "type filter hook output priority -90; policy accept;"],
];
const REGULAR_CHAINS = [
  "host-ports",
  "services",
  "endpoints-check",
  "cluster-ips-check",
  "reject-chain",
];

/** Local addresses but loopback: NodePorts answer on every one of them. */
const LOCAL = "fib daddr type local ip daddr != 127.0.0.0/8";

/**
 * The complete script for `table`. Throws on an invalid table name or pod
 * CIDR (the caller's configuration); skips invalid objects.
 */
export function renderRuleset(
  table: string,
  services: ServiceObject[],
  slices: EndpointSliceObject[],
  facts: NodeFacts,
  existing: TableContents = { chains: [], sets: [], maps: [] },
): Ruleset {
  if (!validTableName(table))
    throw new Error(`invalid nftables table name ${JSON.stringify(table)}`);
  if (!validCIDR(facts.podCIDR))
    throw new Error(`invalid pod CIDR ${JSON.stringify(facts.podCIDR)}`);
  if (facts.serviceCIDR !== undefined && !validCIDR(facts.serviceCIDR))
    throw new Error(`invalid service CIDR ${JSON.stringify(facts.serviceCIDR)}`);
  const { ports, skipped } = servicePorts(services, slices, facts);
  const t = `ip ${table}`;
  const out: string[] = [`add table ${t} { comment "Services of Hearth"; }`];
  const chains = new Set<string>();
  const sets = new Set(FIXED_SETS.map(([n]) => n));
  const maps = new Set(FIXED_MAPS.map(([n]) => n));
  const body: string[] = [];
  const rule = (chain: string, r: string) => body.push(`add rule ${t} ${chain} ${r}`);
  const chain = (name: string, comment?: string) => {
    chains.add(name);
    out.push(`add chain ${t} ${name}${comment ? ` { comment "${comment}"; }` : ""}`);
  };
  const elements = new Map<string, string[]>([...sets, ...maps].map((n) => [n, []]));
  const element = (set: string, e: string) => elements.get(set)?.push(e);

  for (const [name, def] of FIXED_SETS) out.push(`add set ${t} ${name} { ${def} }`);
  for (const [name, def] of FIXED_MAPS) out.push(`add map ${t} ${name} { ${def} }`);
  for (const [name, def] of BASE_CHAINS) {
    chains.add(name);
    out.push(`add chain ${t} ${name} { ${def} }`);
  }
  for (const name of REGULAR_CHAINS) chain(name);

  for (const c of ["nat-prerouting", "nat-output"]) {
    rule(c, "jump host-ports");
    rule(c, "jump services");
  }
  // Hairpin: a pod sent to itself through a Service must see the packet come
  // from elsewhere (its own address as source is martian, and its reply would
  // skip the un-DNAT); only packets DNATed to the very address they come from,
  // inside this node's pod CIDR, are masqueraded, so nothing leaves the machine NATed.
  rule(
    "nat-postrouting",
    `ip saddr ${facts.podCIDR} ip daddr ${facts.podCIDR} ct status dnat ip saddr . ip daddr @hairpin masquerade`,
  );
  rule("services", "ip daddr . meta l4proto . th dport vmap @services");
  rule("services", "ip daddr @node-ips meta l4proto . th dport vmap @node-ports");
  rule("services", `${LOCAL} meta l4proto . th dport vmap @node-ports`);
  if (facts.podBridge !== undefined) {
    if (!/^[A-Za-z0-9_.-]{1,15}$/.test(facts.podBridge))
      throw new Error(`invalid bridge name ${JSON.stringify(facts.podBridge)}`);
    const br = `"${facts.podBridge}"`;
    const routed = "@routed-cidrs";
    rule(
      "filter-forward",
      `ip saddr ${facts.podCIDR} oifname != ${br} ip daddr != ${routed} counter drop`,
    );
    rule(
      "filter-forward",
      `ip daddr ${facts.podCIDR} iifname != ${br} ip saddr != ${routed} counter drop`,
    );
    // A packet conntrack cannot place (e.g. of a flow whose entry was deleted) is neither
    // NATed nor checked as new: kube-proxy drops it rather than let it follow the host's routes.
    rule("filter-forward", `ip saddr ${facts.podCIDR} ct state invalid counter drop`);
    rule("filter-forward", `ip daddr ${facts.podCIDR} ct state invalid counter drop`);
    // The host picks the source of a ClusterIP (or NodePort) connection before its DNAT,
    // by its own routes; DNATed to a pod of another node, it leaves with the address of
    // the link to that node (as kube-proxy masquerades what does not come from a pod), so
    // the other node lets it in (a routed node's address) and its reply comes back.
    rule(
      "nat-postrouting",
      "fib saddr type local ip daddr @routed-cidrs ct status dnat masquerade",
    );
  }
  for (const c of ["filter-input", "filter-forward", "filter-output"])
    rule(c, "ct state new jump endpoints-check");
  for (const c of ["filter-forward", "filter-output-post-dnat"])
    rule(c, "ct state new jump cluster-ips-check");
  rule("endpoints-check", "ip daddr . meta l4proto . th dport vmap @no-endpoint-services");
  rule(
    "endpoints-check",
    "ip daddr @node-ips meta l4proto . th dport vmap @no-endpoint-node-ports",
  );
  rule("endpoints-check", `${LOCAL} meta l4proto . th dport vmap @no-endpoint-node-ports`);
  // After DNAT a ClusterIP left as destination has no such port: refuse it.
  rule("cluster-ips-check", `ip daddr @cluster-ips goto reject-chain`);
  if (facts.serviceCIDR) rule("cluster-ips-check", `ip daddr ${facts.serviceCIDR} drop`);
  rule("reject-chain", "meta l4proto tcp reject with tcp reset");
  rule("reject-chain", "reject with icmp type port-unreachable");

  for (const ip of new Set(facts.nodeIPs.filter(validIPv4))) element("node-ips", ip);
  for (const cidr of facts.routedCIDRs ?? [])
    if (validCIDR(cidr)) element("routed-cidrs", cidr);
    else skipped.push(`routed pod CIDR ${JSON.stringify(cidr)} is not an IPv4 network`);
  for (const ip of facts.nodeIPs.filter((ip) => !validIPv4(ip)))
    skipped.push(`node IP ${JSON.stringify(ip)} is no IPv4 address`);

  for (const hp of facts.hostPorts ?? []) hostPort(hp, rule, element);

  const rendered: ServicePortRule[] = [];
  const clusterKeys = new Set<string>();
  const nodePortKeys = new Set<string>();
  for (const sp of ports) {
    const clusterKey = `${sp.clusterIP} . ${sp.protocol} . ${sp.port}`;
    if (clusterKeys.has(clusterKey) || chains.has(sp.chain)) {
      skipped.push(`${sp.key}: ${clusterKey} is taken by another service port`);
      continue;
    }
    clusterKeys.add(clusterKey);
    element("cluster-ips", sp.clusterIP);
    const nodePortKey = sp.nodePort !== undefined ? `${sp.protocol} . ${sp.nodePort}` : undefined;
    const nodePortFree = nodePortKey !== undefined && !nodePortKeys.has(nodePortKey);
    if (nodePortKey !== undefined && !nodePortFree) {
      skipped.push(`${sp.key}: node port ${nodePortKey} is taken by another service port`);
      const { nodePort: _taken, ...withoutNodePort } = sp;
      rendered.push(withoutNodePort);
    } else rendered.push(sp);
    if (nodePortKey !== undefined) nodePortKeys.add(nodePortKey);

    if (sp.endpoints.length === 0)
      element("no-endpoint-services", `${clusterKey} : goto reject-chain`);
    else {
      chain(sp.chain, sp.key);
      element("services", `${clusterKey} : goto ${sp.chain}`);
      pickEndpoint(sp.chain, sp.endpoints, rule);
    }
    for (const ep of sp.endpoints) {
      chain(ep.chain, `${sp.key} -> ${ep.ip}:${ep.port}`);
      if (ep.affinitySet) {
        sets.add(ep.affinitySet);
        out.push(
          `add set ${t} ${ep.affinitySet} { type ipv4_addr; flags dynamic,timeout; timeout ${sp.affinitySeconds}s; }`,
        );
        rule(ep.chain, `update @${ep.affinitySet} { ip saddr }`);
      }
      rule(ep.chain, `meta l4proto ${sp.protocol} dnat to ${ep.ip}:${ep.port}`);
      element("hairpin", `${ep.ip} . ${ep.ip}`);
    }
    if (!nodePortFree || nodePortKey === undefined) continue;
    if (!sp.externalChain) {
      if (sp.endpoints.length > 0) element("node-ports", `${nodePortKey} : goto ${sp.chain}`);
      else element("no-endpoint-node-ports", `${nodePortKey} : goto reject-chain`);
      continue;
    }
    const local = sp.endpoints.filter((e) => e.local);
    if (local.length === 0) {
      element("no-endpoint-node-ports", `${nodePortKey} : drop`);
      continue;
    }
    chain(sp.externalChain, `${sp.key} external, local endpoints`);
    element("node-ports", `${nodePortKey} : goto ${sp.externalChain}`);
    pickEndpoint(sp.externalChain, local, rule);
  }

  out.push(`flush table ${t}`);
  for (const name of maps) out.push(`flush map ${t} ${name}`);
  for (const name of FIXED_SETS.map(([n]) => n)) out.push(`flush set ${t} ${name}`);
  out.push(...body);
  for (const [name, es] of elements)
    if (es.length > 0) out.push(`add element ${t} ${name} { ${[...new Set(es)].join(", ")} }`);
  for (const name of [...existing.chains].sort())
    if (!chains.has(name)) out.push(`delete chain ${t} ${name}`);
  for (const name of [...existing.sets].sort())
    if (!sets.has(name)) out.push(`delete set ${t} ${name}`);
  for (const name of [...existing.maps].sort())
    if (!maps.has(name)) out.push(`delete map ${t} ${name}`);
  return { text: `${out.join("\n")}\n`, skipped, ports: rendered };
}

/**
 * A pod's host port: a connection to it on a local address (its hostIP, or
 * any but loopback, as NodePorts) goes to the pod; a pod of the node sent to
 * itself so is a hairpin.
 */
function hostPort(
  hp: HostPortRule,
  rule: (chain: string, r: string) => void,
  element: (set: string, e: string) => void,
): void {
  const to = hp.hostIP === undefined ? LOCAL : `ip daddr ${hp.hostIP}`;
  rule(
    "host-ports",
    `${to} meta l4proto ${hp.protocol} th dport ${hp.hostPort} dnat to ${hp.podIP}:${hp.containerPort} comment "${hp.pod}"`,
  );
  element("hairpin", `${hp.podIP} . ${hp.podIP}`);
}

/**
 * The rules that send a connection of `chain` to one of `endpoints`: to the
 * endpoint whose affinity set holds the client, else to one at random.
 */
function pickEndpoint(
  chain: string,
  endpoints: { chain: string; affinitySet?: string }[],
  rule: (chain: string, r: string) => void,
): void {
  for (const ep of endpoints)
    if (ep.affinitySet) rule(chain, `ip saddr @${ep.affinitySet} goto ${ep.chain}`);
  const choices = endpoints.map((ep, i) => `${i} : goto ${ep.chain}`).join(", ");
  rule(chain, `numgen random mod ${endpoints.length} vmap { ${choices} }`);
}
