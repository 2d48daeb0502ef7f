/** The node agent's settings, with the kubelet's defaults where it has them. */
import os from "node:os";
import type { Cache } from "../runtime/index.js";
import { type BackoffOptions, DEFAULT_CRASH_BACKOFF } from "./backoff.js";
import { DEFAULT_CRI_POD_CIDR } from "./containerd/index.js";
import type { PodDnsSettings } from "./cri/index.js";
import type { NodeApiTls } from "./log-server.js";
import { HOST_IP } from "./node-object.js";

export interface AgentOptions {
  /**
   * The running cache of another Manager in this process (`hearth up`: the core
   * controllers'), read and watched through instead of one of the agent's own.
   */
  sharedCache?: Cache;
  /** The Node's name (default: this machine's hostname). */
  nodeName?: string;
  /** Pods live under `<dataDir>/pods`. */
  dataDir: string;
  /** The node's pod CIDR, published on its Node (default 10.88.0.0/24, the pod network's). */
  podCIDR?: string;
  crashBackoff?: BackoffOptions;
  /** How often processes are checked for exits, ms (default 500). */
  pollMs?: number;
  /** Port of the log endpoint (default: any free port). */
  port?: number;
  /**
   * The node's InternalIP (default 127.0.0.1): its log endpoint listens there,
   * pods see it as `status.hostIP`, and other nodes route this node's pod CIDR to it.
   */
  nodeIP?: string;
  heartbeat?: { leaseDurationSeconds: number; renewIntervalMs: number; statusIntervalMs: number };
  /** The container runtime the pods run on (containerd's CRI socket); required to start. */
  cri?: CriAgentOptions;
  /**
   * Pods' DNS (with `cri`): the cluster DNS address, the cluster domain and
   * the host's resolv.conf, as the kubelet's --cluster-dns, --cluster-domain
   * and --resolv-conf. Omitted: containerd gives pods the host's resolv.conf.
   */
  dns?: PodDnsSettings;
  /**
   * The node API over HTTPS (a serving pair from the cluster CA, callers by
   * client certificate); without it, HTTP with a bearer token in the Node's annotations.
   */
  tls?: NodeApiTls;
  /** On stop, leave the pods running (for the next agent to adopt). */
  keepWorkloads?: boolean;
  log?(msg: string, err?: unknown): void;
}

export interface CriAgentOptions {
  /** The runtime's CRI socket (unix path). */
  socket: string;
}

export type ResolvedOptions = Required<
  Omit<AgentOptions, "log" | "sharedCache" | "cri" | "dns" | "tls">
> & {
  tls?: NodeApiTls;
  log(msg: string, err?: unknown): void;
  sharedCache?: Cache;
  cri?: CriAgentOptions;
  dns?: PodDnsSettings;
};

/** The Node's name when none is given: this machine's hostname, lower-cased. */
export function defaultNodeName(): string {
  return os.hostname().toLowerCase();
}

export function withDefaults(o: AgentOptions): ResolvedOptions {
  return {
    nodeName: o.nodeName ?? defaultNodeName(),
    dataDir: o.dataDir,
    podCIDR: o.podCIDR ?? DEFAULT_CRI_POD_CIDR,
    crashBackoff: o.crashBackoff ?? DEFAULT_CRASH_BACKOFF,
    pollMs: o.pollMs ?? 500,
    port: o.port ?? 0,
    nodeIP: o.nodeIP ?? HOST_IP,
    heartbeat: o.heartbeat ?? {
      leaseDurationSeconds: 40,
      renewIntervalMs: 10_000,
      statusIntervalMs: 60_000,
    },
    keepWorkloads: o.keepWorkloads ?? false,
    ...(o.cri ? { cri: o.cri } : {}),
    ...(o.dns ? { dns: o.dns } : {}),
    ...(o.tls ? { tls: o.tls } : {}),
    log: o.log ?? (() => {}),
  };
}
