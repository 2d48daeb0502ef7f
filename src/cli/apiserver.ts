/**
 * `hearth apiserver --etcd-servers URL[,URL] [--etcd-prefix P] [--etcd-cafile F
 * --etcd-certfile F --etcd-keyfile F] [--data-dir DIR] [--port N] [--host ADDR]
 * [--token-auth-file F] [--compaction-interval-seconds N]`: only the API server
 * (no controllers, node agent or platform), as kube-apiserver runs. Several may
 * serve one etcd; they accept the same users when they share the PKI in
 * DIR/pki (CA, serving certificate, admin token, ServiceAccount key): the
 * first creates it, the others are given the same --data-dir (or a copy of
 * DIR/pki). Also where the storage flags shared with `hearth up` are read:
 * without --etcd-servers the store is SQLite at DIR/state.db.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pino } from "pino";
import { startCompactor } from "../apiserver/compactor.js";
import { ApiServer, loadTokenFile } from "../apiserver/index.js";
import { writeKubeconfig } from "../client/index.js";
import { type Backend, openEtcdBackend, openSqliteBackend } from "../storage/index.js";
import { intFlag, type ParsedArgs, parseArgs } from "./args.js";
import { ensurePki } from "./data-dir.js";

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

export async function apiserver(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  if (!args.flags.get("etcd-servers")) throw new Error("hearth apiserver needs --etcd-servers");
  const dataDir = resolve(args.flags.get("data-dir") ?? ".hearth");
  const port = intFlag(args, "port", 6443);
  const host = args.flags.get("host") ?? "127.0.0.1";
  const log = pino({ name: "hearth-apiserver" }, pino.destination(2));
  const logError = (msg: string, err?: unknown) => log.error({ err }, msg);
  mkdirSync(dataDir, { recursive: true });
  const pki = await ensurePki(dataDir, {
    dns: ["localhost", "hearth", "kubernetes.default.svc"],
    ips: ["127.0.0.1", ...(host !== "127.0.0.1" && host !== "0.0.0.0" ? [host] : [])],
  });
  const backend = await openBackendFromFlags(args, dataDir);
  const controller = new AbortController();
  const tokenFile = args.flags.get("token-auth-file");
  const server = new ApiServer({
    backend,
    tls: pki.serving,
    tokens: new Map([[pki.adminToken, "admin"]]),
    ...(tokenFile ? { tokenUsers: loadTokenFile(resolve(tokenFile)) } : {}),
    clientCAs: [pki.ca.certPem],
    serviceAccountSigning: { keyPem: pki.serviceAccountKeyPem },
    rbac: true,
    host,
    port,
    log: logError,
  });
  await server.start(controller.signal);
  startCompactorFromFlags(backend, args, logError, controller.signal);
  const url = `https://${host === "0.0.0.0" ? "127.0.0.1" : host}:${server.port}`;
  // Several apiservers may share DIR: each writes a kubeconfig named by its port.
  const kubeconfig = join(dataDir, `admin-${server.port}.kubeconfig`);
  await writeKubeconfig(kubeconfig, {
    server: url,
    caPem: pki.ca.certPem,
    token: pki.adminToken,
    contextName: "hearth",
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    controller.abort();
    await server.closed();
    await backend.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.stdout.write(`hearth apiserver is ready: ${url} (kubectl --kubeconfig ${kubeconfig})\n`);
}
