/**
 * `hearth up [--data-dir DIR] [--port N] [--token-auth-file FILE]
 * [--volume-pool-size 100Gi] [--pod-cidr CIDR] [--service-cidr CIDR] [--node-name NAME] [--node-ip ADDR]
 * [--containerd-socket PATH] [--insecure-registry HOST[,HOST]]
 * [--keep-workloads] [--no-node-agent] [--cluster-domain DOMAIN] [--resolv-conf FILE]
 * [--node-monitor-grace-period 40s]
 * [--etcd-servers URL[,URL] and the other etcd flags of `apiserver.ts`]`: runs the
 * platform on this machine. For now that is the apiserver on SQLite at
 * DIR/state.db (or on etcd with --etcd-servers), over HTTPS with the PKI in DIR/pki, and DIR/admin.kubeconfig for
 * kubectl. Users: the admin token (system:masters), kube's token file, client
 * certificates signed by DIR/pki/ca.crt, ServiceAccount tokens signed with
 * DIR/pki/sa.key; RBAC decides what they may do. Prints one line when ready;
 * SIGTERM or SIGINT stop it cleanly. One node agent (`node.ts`) runs this
 * machine's pods under DIR/pods; it stops them on SIGTERM unless
 * `--keep-workloads`; with it the node's Services in nftables, and a
 * containerd of its own (container-runtime.ts); `--no-node-agent`: none of
 * them runs, and no root is needed. `--node-ip` is the
 * node's InternalIP (where other nodes route its pod CIDR) and goes into a new
 * serving certificate, with `--host` (where the API listens), so that a `hearth
 * node` elsewhere can reach the API at that address. With its own pod network,
 * cluster DNS answers on the node's pod-bridge gateway behind the kube-dns
 * Service (cluster-dns.ts, docs/dns.md).
 */
import { join } from "node:path";
import { type Client, createHttpClient } from "../client/index.js";
import { runCoreControllers } from "../controllers/index.js";
import type { Cache } from "../runtime/index.js";
import { serveApi } from "./apiserver.js";
import { durationFlag, parseArgs, quantityFlag } from "./args.js";
import { startUpClusterDns, upPodDns } from "./cluster-dns.js";
import { checkRuntimeCanStart, runtimeChoice } from "./container-runtime.js";
import { agentOptions, NODE_BOOLEAN_FLAGS, nodeIPFlag, startNodeAgent } from "./node.js";
import { clusterNodeApiTls } from "./node-api-tls.js";
import {
  checkedInDefinitions,
  platformAdmission,
  platformIdentities,
  startPlatform,
} from "./platform.js";
import { addPlatformReadyChecks } from "./platform-readiness.js";

export async function up(argv: string[]): Promise<void> {
  const args = parseArgs(argv, [...NODE_BOOLEAN_FLAGS, "no-node-agent"]);
  // Refused before anything listens: flags, and root for a containerd of its own.
  const runtime = runtimeChoice(args);
  // Without a node agent nothing runs pods: no root is needed.
  if (args.flags.get("no-node-agent") !== "true") checkRuntimeCanStart(runtime);
  const nodeIP = nodeIPFlag(args);
  // The apiserver hands out ClusterIPs from the range the node's nftables rules serve.
  args.flags.set("service-cidr", runtime.serviceCIDR);
  const ids = platformIdentities();
  const definitions = checkedInDefinitions();
  let platformClient: Client | undefined;
  const api = await serveApi(args, {
    name: "hearth",
    kubeconfigName: () => "admin.kubeconfig",
    extraTokens: ids.tokens,
    admission: [platformAdmission(() => platformClient, definitions)],
    // Before listening: a `/readyz` answered between listen and these checks would pass too early.
    beforeListen: (server) => addPlatformReadyChecks(server, definitions),
    ...(nodeIP ? { extraIPs: [nodeIP] } : {}),
  });
  const { server, backend, pki, kubeconfig, controller, dataDir, log, logError } = api;
  const server_url = api.url;

  // The core controllers reach the API like any client, as system:hearth:controller-manager.
  const controllerClient = createHttpClient({
    server: server_url,
    caPem: pki.ca.certPem,
    token: ids.controllerToken,
    userAgent: "hearth-controller-manager",
  });
  // The platform reads and watches through the core controllers' cache: one WATCH
  // per resource and selector for the whole process.
  let coreCache: Cache | undefined;
  const controllersDone = runCoreControllers(controllerClient, controller.signal, {
    onManager: (m) => {
      coreCache = m.cache;
    },
    log: logError,
    storage: {
      volumesDir: join(dataDir, "volumes"),
      poolBytes: quantityFlag(args, "volume-pool-size", "100Gi"),
    },
    nodeMonitorGracePeriodMs: durationFlag(args, "node-monitor-grace-period", "40s"),
  });

  // One node agent runs this machine's pods (under DIR/pods), and its Service rules.
  const nodeStop = new AbortController();
  const nodeClient = createHttpClient({
    server: server_url,
    caPem: pki.ca.certPem,
    token: pki.adminToken,
    userAgent: "hearth-node",
  });
  const node =
    args.flags.get("no-node-agent") === "true"
      ? undefined
      : await startNodeAgent(
          nodeClient,
          {
            ...agentOptions(args, dataDir, logError),
            ...upPodDns(args, runtime),
            ...(coreCache ? { sharedCache: coreCache } : {}),
            tls: await clusterNodeApiTls(pki.ca, nodeIP ?? "127.0.0.1"),
          },
          nodeStop.signal,
          runtime,
        );

  // Cluster DNS, on the node's pod-bridge gateway (the bridge exists once the node's runtime does).
  const dnsStop = new AbortController();
  const dns = node
    ? await startUpClusterDns(controllerClient, dnsStop.signal, args, runtime, {
        ...(coreCache ? { cache: coreCache } : {}),
        log: logError,
      })
    : undefined;

  // The platform: bootstrap (definitions, roles, guardrails, tenant-root), then the apps engine.
  const rootHost = args.flags.get("root-host");
  const platform = startPlatform(server_url, pki.ca.certPem, ids.platformToken, controller.signal, {
    definitions,
    log: logError,
    info: (msg) => log.info(msg),
    ...(rootHost ? { rootHost } : {}),
    ...(coreCache ? { sharedCache: coreCache } : {}),
  });
  platformClient = platform.client;
  await platform.ready;
  // The same checks as /readyz: the ready line is printed only when a client may rely on the platform.
  await server.whenReady(controller.signal);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    // The node first: it stops the pods (unless --keep-workloads) while the API still
    // answers, and removes its Service rules, before its client closes; DNS before it.
    dnsStop.abort();
    await dns?.done;
    nodeStop.abort();
    await node?.stopped();
    nodeClient.close();
    controller.abort();
    await Promise.all([controllersDone, platform.done]);
    controllerClient.close();
    platform.client.close();
    await server.closed();
    await backend.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.stdout.write(`hearth is ready: ${server_url} (kubectl --kubeconfig ${kubeconfig})\n`);
}
