/**
 * `hearth apiserver --etcd-servers URL[,URL] [--etcd-prefix P] [--etcd-cafile F
 * --etcd-certfile F --etcd-keyfile F] [--data-dir DIR] [--port N] [--host ADDR]
 * [--token-auth-file F] [--service-cidr CIDR] [--compaction-interval-seconds N]`:
 * only the API server (no controllers, node agent or platform engine), as
 * kube-apiserver runs, with the platform's admission checks on apps. Several may
 * serve one etcd; they accept the same users when they share the PKI in
 * DIR/pki (CA, serving certificate, admin token, ServiceAccount key): the
 * first creates it, the others are given the same --data-dir (or a copy of
 * DIR/pki). Also where the storage flags shared with `hearth up` are read:
 * without --etcd-servers the store is SQLite at DIR/state.db.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Logger, pino } from "pino";
import type { AdmissionPlugin } from "../apiserver/index.js";
import { ApiServer, loadTokenFile, startCompactor } from "../apiserver/index.js";
import { createHttpClient, type Reader, writeKubeconfig } from "../client/index.js";
import { PLATFORM_USER } from "../platform/index.js";
import { type Backend, openEtcdBackend, openSqliteBackend } from "../storage/index.js";
import { intFlag, type ParsedArgs, parseArgs } from "./args.js";
import { ensurePki } from "./data-dir.js";
import { checkedInDefinitions, platformAdmission, platformIdentities } from "./platform.js";

/** The store the flags name: etcd with --etcd-servers, else SQLite in `dataDir`. */
export async function openBackendFromFlags(args: ParsedArgs, dataDir: string): Promise<Backend> {
  const servers = args.flags.get("etcd-servers");
  if (!servers) return openSqliteBackend(join(dataDir, "state.db"));
  const ca = args.flags.get("etcd-cafile");
  const cert = args.flags.get("etcd-certfile");
  const key = args.flags.get("etcd-keyfile");
  if ((cert === undefined) !== (key === undefined))
    throw new Error("--etcd-certfile and --etcd-keyfile must be given together");
  if (cert && !ca) throw new Error("--etcd-certfile needs --etcd-cafile");
  return openEtcdBackend({
    endpoints: servers.split(",").map((s) => s.trim()),
    prefix: args.flags.get("etcd-prefix") ?? "",
    ...(ca
      ? {
          tls: {
            ca: resolve(ca),
            ...(cert && key ? { cert: resolve(cert), key: resolve(key) } : {}),
          },
        }
      : {}),
    // Compaction is cluster-wide: with it off, etcd's own --auto-compaction-* does it.
    compact: compactionIntervalMs(args) > 0,
  });
}

export function compactionIntervalMs(args: ParsedArgs): number {
  return intFlag(args, "compaction-interval-seconds", 300) * 1000;
}

/** Compacts storage periodically unless the backend leaves it to etcd. */
export function startCompactorFromFlags(
  backend: Backend,
  args: ParsedArgs,
  log: (msg: string, err?: unknown) => void,
  signal: AbortSignal,
): void {
  if ("compacts" in backend && backend.compacts === false) return;
  startCompactor(
    backend,
    {
      intervalMs: compactionIntervalMs(args),
      retain: intFlag(args, "compaction-retain", 1000),
      log,
    },
    signal,
  );
}

export interface ServedApi {
  server: ApiServer;
  backend: Backend;
  pki: Awaited<ReturnType<typeof ensurePki>>;
  /** The URL clients on this machine use. */
  url: string;
  kubeconfig: string;
  /** Aborted to stop the server (and whatever else the command runs). */
  controller: AbortController;
  dataDir: string;
  log: Logger;
  logError(msg: string, err?: unknown): void;
}

/**
 * What `hearth up` and `hearth apiserver` share: DIR/pki, the store the flags
 * name, the API server over HTTPS (admin token, token file, client CAs,
 * ServiceAccount signing, RBAC, `--service-cidr`), the compactor, and an admin
 * kubeconfig in DIR.
 */
export async function serveApi(
  args: ParsedArgs,
  opts: {
    name: string;
    kubeconfigName(port: number): string;
    extraTokens?: [string, string][];
    admission?: AdmissionPlugin[];
    /** Runs before the server listens: readiness checks added here hold from the first `/readyz`. */
    beforeListen?(server: ApiServer): void;
    /** More addresses for a new serving certificate (`hearth up`'s `--node-ip`). */
    extraIPs?: string[];
  },
): Promise<ServedApi> {
  const dataDir = resolve(args.flags.get("data-dir") ?? ".hearth");
  const port = intFlag(args, "port", 6443);
  const host = args.flags.get("host") ?? "127.0.0.1";
  const log = pino({ name: opts.name }, pino.destination(2));
  const logError = (msg: string, err?: unknown) => log.error({ err }, msg);
  mkdirSync(dataDir, { recursive: true });
  const pki = await ensurePki(dataDir, {
    dns: ["localhost", "hearth", "kubernetes.default.svc"],
    ips: [
      ...new Set(["127.0.0.1", ...(host !== "0.0.0.0" ? [host] : []), ...(opts.extraIPs ?? [])]),
    ],
  });
  const backend = await openBackendFromFlags(args, dataDir);
  const controller = new AbortController();
  const tokenFile = args.flags.get("token-auth-file");
  const serviceCidr = args.flags.get("service-cidr");
  const server = new ApiServer({
    backend,
    tls: pki.serving,
    nodeClient: { ...pki.nodeClient, caPem: pki.ca.certPem },
    tokens: new Map([[pki.adminToken, "admin"], ...(opts.extraTokens ?? [])]),
    ...(opts.admission ? { admission: opts.admission } : {}),
    ...(serviceCidr ? { serviceCidr } : {}),
    ...(tokenFile ? { tokenUsers: loadTokenFile(resolve(tokenFile)) } : {}),
    clientCAs: [pki.ca.certPem],
    serviceAccountSigning: { keyPem: pki.serviceAccountKeyPem },
    rbac: true,
    host,
    port,
    log: logError,
  });
  opts.beforeListen?.(server);
  await server.start(controller.signal);
  startCompactorFromFlags(backend, args, logError, controller.signal);
  const url = `https://${host === "0.0.0.0" ? "127.0.0.1" : host}:${server.port}`;
  const kubeconfig = join(dataDir, opts.kubeconfigName(server.port));
  await writeKubeconfig(kubeconfig, {
    server: url,
    caPem: pki.ca.certPem,
    token: pki.adminToken,
    contextName: "hearth",
  });
  return { server, backend, pki, url, kubeconfig, controller, dataDir, log, logError };
}

export async function apiserver(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  if (!args.flags.get("etcd-servers")) throw new Error("hearth apiserver needs --etcd-servers");
  // The platform's checks on apps run in every apiserver of one API; they read
  // through this server as the platform's identity.
  const ids = platformIdentities();
  let reader: Reader | undefined;
  const api = await serveApi(args, {
    name: "hearth-apiserver",
    // Several apiservers may share DIR: each writes a kubeconfig named by its port.
    kubeconfigName: (port) => `admin-${port}.kubeconfig`,
    extraTokens: [[ids.platformToken, PLATFORM_USER]],
    admission: [platformAdmission(() => reader, checkedInDefinitions())],
  });
  reader = createHttpClient({
    server: api.url,
    caPem: api.pki.ca.certPem,
    token: ids.platformToken,
    userAgent: "hearth-apiserver-admission",
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    api.log.info({ signal }, "stopping");
    api.controller.abort();
    await api.server.closed();
    await api.backend.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.stdout.write(
    `hearth apiserver is ready: ${api.url} (kubectl --kubeconfig ${api.kubeconfig})\n`,
  );
}
