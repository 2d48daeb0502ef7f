/**
 * A pod's resolver configuration (CRI's DNSConfig, which containerd writes
 * as the sandbox's /etc/resolv.conf), as the kubelet's GetPodDNS forms it
 * (pkg/kubelet/network/dns/dns.go):
 *
 * - `ClusterFirst` (the default) and `ClusterFirstWithHostNet`: the cluster
 *   DNS address as the only nameserver, search `<ns>.svc.<domain>
 *   svc.<domain> <domain>` then the host's, `options ndots:5`. A
 *   `hostNetwork` pod with `ClusterFirst` gets `Default` instead.
 * - `Default`: the host's resolv.conf (the `--resolv-conf` file).
 * - `None`: nothing but the pod's `dnsConfig`.
 *
 * Then `dnsConfig` is appended (nameservers and searches without duplicates,
 * options merged by name, the pod's winning), and the result cut to the
 * kubelet's limits — 3 nameservers, 32 search domains, none over 253
 * characters, 2048 characters in all — with a warning saying what was
 * applied (the kubelet's `DNSConfigForming` Event).
 */
import {
  MAX_DNS_NAMESERVERS,
  MAX_DNS_SEARCH_LIST_CHARS,
  MAX_DNS_SEARCH_PATHS,
  type Pod,
} from "../../api/index.js";
import type { ResolvConf } from "../dns/resolv-conf.js";
import type { SandboxFacts } from "./pod-config.js";

const MAX_SEARCH_LENGTH = 253;

export interface PodDnsSettings {
  /** The cluster DNS Service's address (the kube-dns ClusterIP); empty: none. */
  clusterDNS: string[];
  clusterDomain: string;
  /** The host's resolver configuration. */
  host: ResolvConf;
}

export interface PodDnsConfigSpec {
  nameservers?: string[];
  searches?: string[];
  options?: { name?: string; value?: string }[];
}

export interface PodDns {
  servers: string[];
  searches: string[];
  options: string[];
  /** Set when a limit cut something: the message of the kubelet's DNSConfigForming Event. */
  warning?: string;
}

const unique = (list: string[]) => [...new Set(list)];

function mergeOptions(existing: string[], extra: PodDnsConfigSpec["options"]): string[] {
  const byName = new Map<string, string>();
  for (const op of existing) {
    const i = op.indexOf(":");
    if (i === -1) byName.set(op, "");
    else byName.set(op.slice(0, i), op.slice(i + 1));
  }
  for (const op of extra ?? []) if (op.name) byName.set(op.name, op.value ?? "");
  return [...byName].map(([name, value]) => (value ? `${name}:${value}` : name));
}

type DnsType = "cluster" | "host" | "none";

function dnsType(pod: Pod): DnsType {
  switch (pod.spec.dnsPolicy) {
    case "None":
      return "none";
    case "ClusterFirstWithHostNet":
      return "cluster";
    case "Default":
      return "host";
    default:
      // ClusterFirst (and unset): Default on the host's network.
      return pod.spec.hostNetwork ? "host" : "cluster";
  }
}

function fitSearches(searches: string[]): { searches: string[]; cut: boolean } {
  let cut = searches.length > MAX_DNS_SEARCH_PATHS;
  let out = searches.slice(0, MAX_DNS_SEARCH_PATHS);
  const kept = out.filter((s) => s.length <= MAX_SEARCH_LENGTH);
  cut ||= kept.length !== out.length;
  out = kept;
  while (out.join(" ").length > MAX_DNS_SEARCH_LIST_CHARS) {
    out = out.slice(0, -1);
    cut = true;
  }
  return { searches: out, cut };
}

export function podDnsConfig(pod: Pod, s: PodDnsSettings): PodDns {
  const type = dnsType(pod);
  let servers: string[] = [];
  let searches: string[] = [];
  let options: string[] = [];
  if (type === "cluster" && s.clusterDNS.length > 0) {
    const ns = pod.metadata.namespace ?? "default";
    const d = s.clusterDomain;
    servers = [...s.clusterDNS];
    searches = unique([`${ns}.svc.${d}`, `svc.${d}`, d, ...s.host.searches]);
    options = ["ndots:5"];
  } else if (type !== "none") {
    servers = [...s.host.nameservers];
    searches = [...s.host.searches];
    options = [...s.host.options];
  }
  const extra = pod.spec.dnsConfig;
  if (extra) {
    servers = unique([...servers, ...(extra.nameservers ?? [])]);
    searches = unique([...searches, ...(extra.searches ?? [])]);
    options = mergeOptions(options, extra.options);
  }
  const warnings: string[] = [];
  if (servers.length > MAX_DNS_NAMESERVERS) {
    servers = servers.slice(0, MAX_DNS_NAMESERVERS);
    warnings.push(
      `Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${servers.join(" ")}`,
    );
  }
  const fitted = fitSearches(searches);
  if (fitted.cut)
    warnings.push(
      `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${fitted.searches.join(" ")}`,
    );
  return {
    servers,
    searches: fitted.searches,
    options,
    ...(warnings.length ? { warning: warnings.join("; ") } : {}),
  };
}

/**
 * What the sandbox of `pod` is made with: its log directory and, with cluster
 * DNS settings, its resolv.conf and cluster domain; `warn` hears what the limits cut.
 */
export function sandboxFacts(
  pod: Pod,
  logDirectory: string,
  settings: PodDnsSettings | undefined,
  warn?: (msg: string) => void,
): SandboxFacts {
  if (!settings) return { logDirectory };
  const { warning, ...dns } = podDnsConfig(pod, settings);
  if (warning) warn?.(`pod ${pod.metadata.namespace}/${pod.metadata.name}: ${warning}`);
  return { logDirectory, dns, clusterDomain: settings.clusterDomain };
}
