/**
 * Cluster DNS from the command line: `--cluster-domain DOMAIN` (default
 * cluster.local) and `--resolv-conf FILE` (default /etc/resolv.conf), as the
 * kubelet's flags, shared by `hearth up` and `hearth node`; the pods' DNS
 * settings the agent gets from them (the cluster DNS address is the tenth
 * of the Service CIDR); and the server `hearth up` runs on its node's
 * pod-bridge gateway (docs/dns.md), only on a pod network of its own.
 */
import type { Client } from "../client/index.js";
import {
  clusterDnsIP,
  DEFAULT_RESOLV_CONF,
  defaultNodeName,
  type PodDnsSettings,
  parseClusterDomain,
  parsePodCidr,
  readResolvConf,
  startClusterDns,
} from "../node/index.js";
import type { Cache } from "../runtime/index.js";
import type { ParsedArgs } from "./args.js";
import type { RuntimeChoice } from "./container-runtime.js";

/** The pods' DNS settings, as the kubelet's --cluster-dns, --cluster-domain and --resolv-conf. */
export function podDnsFlags(args: ParsedArgs, runtime: RuntimeChoice): PodDnsSettings {
  const clusterDomain = parseClusterDomain(args.flags.get("cluster-domain"));
  return {
    clusterDNS: [clusterDnsIP(runtime.serviceCIDR)],
    clusterDomain,
    host: readResolvConf(args.flags.get("resolv-conf") ?? DEFAULT_RESOLV_CONF),
  };
}

/**
 * `hearth up`'s pods' DNS: with a containerd of its own, as podDnsFlags;
 * with `--containerd-socket` no server runs, so no cluster DNS address, and
 * ClusterFirst pods get the host's resolv.conf, as the kubelet gives them
 * without --cluster-dns.
 */
export function upPodDns(args: ParsedArgs, runtime: RuntimeChoice): { dns: PodDnsSettings } {
  const dns = podDnsFlags(args, runtime);
  return { dns: runtime.socket === undefined ? dns : { ...dns, clusterDNS: [] } };
}

/** Starts `hearth up`'s DNS server when it has a pod network of its own; `done` resolves once it closed. */
export async function startUpClusterDns(
  client: Client,
  signal: AbortSignal,
  args: ParsedArgs,
  runtime: RuntimeChoice,
  o: { cache?: Cache; log(msg: string, err?: unknown): void },
): Promise<{ done: Promise<void> } | undefined> {
  if (runtime.socket !== undefined) return undefined;
  const dns = podDnsFlags(args, runtime);
  return startClusterDns(client, signal, {
    clusterIP: dns.clusterDNS[0]!,
    domain: dns.clusterDomain,
    address: parsePodCidr(runtime.podCIDR).gateway,
    port: 53,
    nodeName: args.flags.get("node-name") ?? defaultNodeName(),
    resolvConf: dns.host,
    ...(o.cache ? { manager: { sharedCache: o.cache } } : {}),
    log: o.log,
  });
}
