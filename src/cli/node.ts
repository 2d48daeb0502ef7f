/**
 * The node agent from the command line: `hearth node --kubeconfig FILE
 * [--data-dir DIR] [--node-name NAME] [--node-ip ADDR] [--pod-cidr CIDR]
 * [--containerd-socket PATH] [--insecure-registry HOST[,HOST]]
 * [--crashloop-backoff-base-ms N] [--keep-workloads] [--cluster-domain DOMAIN]
 * [--resolv-conf FILE] [--client-ca-file FILE]` runs a standalone agent
 * against any apiserver, with the node's Services in nftables (kube-proxy's
 * nftables mode); `hearth up` starts both with the same flags. SIGTERM stops
 * the pods gracefully unless `--keep-workloads` leaves them running for the
 * next agent to adopt. The container runtime (containerd, the local registry,
 * the pod network) is container-runtime.ts's. On a containerd of its own, the
 * node also routes the other Nodes' pod CIDRs to their InternalIPs
 * (`--node-ip` is this node's).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { isIPv4 } from "node:net";
import { resolve } from "node:path";
import { pino } from "pino";
import { type Client, clientFromKubeconfig, loadKubeconfig } from "../client/index.js";
import {
  type AgentOptions,
  bridgeName,
  checkClusterDomain,
  defaultNodeName,
  NodeAgent,
  registerPodRoutes,
  registerServiceRules,
  tableNameFor,
} from "../node/index.js";
import { intFlag, type ParsedArgs, parseArgs } from "./args.js";
import { podDnsFlags } from "./cluster-dns.js";
import {
  type ContainerRuntime,
  checkRuntimeCanStart,
  type RuntimeChoice,
  runtimeChoice,
  startContainerRuntime,
} from "./container-runtime.js";
import { ownNodeApiTls } from "./node-api-tls.js";

export const NODE_BOOLEAN_FLAGS = ["keep-workloads"];

/** The agent's options from flags shared by `hearth node` and `hearth up`. */
export function agentOptions(
  args: ParsedArgs,
  dataDir: string,
  log: (msg: string, err?: unknown) => void,
): AgentOptions {
  const base = args.flags.get("crashloop-backoff-base-ms");
  const name = args.flags.get("node-name");
  const runtime = runtimeChoice(args);
  const { podCIDR } = runtime;
  const nodeIP = nodeIPFlag(args);
  const dns = podDnsFlags(args, runtime);
  return {
    dataDir,
    log,
    dns,
    keepWorkloads: args.flags.get("keep-workloads") === "true",
    ...(name ? { nodeName: name } : {}),
    ...(nodeIP ? { nodeIP } : {}),
    podCIDR,
    ...(base
      ? {
          crashBackoff: {
            baseMs: intFlag(args, "crashloop-backoff-base-ms", 10_000),
            maxMs: intFlag(args, "crashloop-backoff-max-ms", 300_000),
          },
        }
      : {}),
  };
}

/** `--node-ip ADDR`, checked: an IPv4 address of one interface (not 0.0.0.0). */
export function nodeIPFlag(args: ParsedArgs): string | undefined {
  const ip = args.flags.get("node-ip");
  if (ip !== undefined && (!isIPv4(ip) || ip === "0.0.0.0"))
    throw new Error(`--node-ip must be an IPv4 address of this node, got ${JSON.stringify(ip)}`);
  return ip;
}

/** A node's agent and its Services' nftables rules, running until their signal aborts. */
export interface RunningNode {
  agent: NodeAgent;
  /** Resolves once both have stopped (and the pods, unless kept). */
  stopped(): Promise<void>;
}

/**
 * Starts the container runtime, then an agent on it with the Service rules
 * and pod routes on the agent's Manager; resolves once the Node is
 * registered. The Manager, and so the rules, starts only once the Node is.
 * The runtime stops after the agent. Without `runtime`, the agent runs on the
 * CRI socket of `options.cri` alone (a containerd someone else started and
 * networks; tests of the agent) and nothing else is set up.
 */
export async function startNodeAgent(
  client: Client,
  options: AgentOptions,
  signal: AbortSignal,
  runtime?: RuntimeChoice,
): Promise<RunningNode> {
  mkdirSync(options.dataDir, { recursive: true });
  const containers: ContainerRuntime = runtime
    ? await startContainerRuntime(runtime, options.dataDir, options.log ?? (() => {}))
    : { stop: async () => {} };
  try {
    const agent = new NodeAgent(client, {
      ...options,
      ...(containers.cri ? { cri: containers.cri } : {}),
    });
    const nodeName = options.nodeName ?? defaultNodeName();
    const warn = (msg: string) => options.log?.(msg);
    // A containerd of its own: the pod network is Hearth's bridge, kept to itself
    // but for the routes to the other nodes' pods.
    const ownNetwork = runtime !== undefined && runtime.socket === undefined;
    if (runtime)
      registerServiceRules(agent.manager, {
        table: tableNameFor(options.dataDir),
        podCIDR: runtime.podCIDR,
        serviceCIDR: runtime.serviceCIDR,
        nodeIPs: [],
        nodeName,
        ...(ownNetwork ? { podBridge: bridgeName(options.dataDir) } : {}),
        warn,
      });
    if (ownNetwork)
      registerPodRoutes(agent.manager, {
        name: nodeName,
        podCIDR: runtime.podCIDR,
        dataDir: options.dataDir,
        warn,
      });
    await agent.start(signal);
    let stopped: Promise<void> | undefined;
    return {
      agent,
      stopped: () => (stopped ??= agent.stopped().then(() => containers.stop())),
    };
  } catch (e) {
    await containers.stop();
    throw e;
  }
}

/**
 * The CA the apiserver's client certificate to the node API chains to
 * (kubelet's `--client-ca-file`): the file given, else the kubeconfig's
 * cluster CA. Without either the node API could not tell the apiserver from
 * any other caller, so the node does not start.
 */
async function clientCAOf(args: ParsedArgs, kubeconfig: string): Promise<string> {
  const file = args.flags.get("client-ca-file");
  if (file !== undefined) {
    const pem = readFileSync(resolve(file), "utf8");
    if (!pem.includes("-----BEGIN CERTIFICATE-----"))
      throw new Error(`--client-ca-file ${file}: no PEM certificate in it`);
    return pem;
  }
  const { caPem } = await loadKubeconfig(kubeconfig);
  if (caPem) return caPem;
  throw new Error(
    "hearth node needs the cluster CA, so that its node API lets in the apiserver and no one else: " +
      "the kubeconfig names no certificate-authority; add one to it, or give --client-ca-file FILE",
  );
}

export async function node(argv: string[]): Promise<void> {
  const args = parseArgs(argv, NODE_BOOLEAN_FLAGS);
  const kubeconfig = args.flags.get("kubeconfig") ?? process.env.KUBECONFIG;
  if (!kubeconfig) throw new Error("hearth node needs --kubeconfig FILE (or KUBECONFIG)");
  const runtime = runtimeChoice(args);
  checkRuntimeCanStart(runtime);
  const nodeIP = nodeIPFlag(args) ?? "127.0.0.1";
  const log = pino({ name: "hearth-node" }, pino.destination(2));
  const dataDir = resolve(args.flags.get("data-dir") ?? ".hearth-node");
  const client = await clientFromKubeconfig(resolve(kubeconfig));
  // The flags first, so that a bad one is named before anything else is looked at.
  const agent = agentOptions(args, dataDir, (msg, err) => log.error({ err }, msg));
  const clientCA = await clientCAOf(args, resolve(kubeconfig));
  const options = {
    ...agent,
    // HTTPS, letting in the callers whose client certificate the cluster CA signed as the apiserver's.
    tls: await ownNodeApiTls(clientCA, nodeIP),
  };
  if (options.dns) await checkClusterDomain(client, options.dns.clusterDomain);
  const controller = new AbortController();
  const running = await startNodeAgent(client, options, controller.signal, runtime);
  const stop = async (signal: string) => {
    log.info({ signal }, "stopping");
    controller.abort();
    await running.stopped();
    client.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  process.stdout.write(
    `hearth node is ready: ${dataDir} (logs on ${nodeIP}:${running.agent.port})\n`,
  );
}
