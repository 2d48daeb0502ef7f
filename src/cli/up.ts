/**
 * `hearth up [--data-dir DIR] [--port N] [--token-auth-file FILE]`: runs the
 * platform on this machine. For now that is the apiserver on SQLite at
 * DIR/state.db, over HTTPS with the PKI in DIR/pki, and DIR/admin.kubeconfig for
 * kubectl. Users: the admin token (system:masters), kube's token file, client
 * certificates signed by DIR/pki/ca.crt, ServiceAccount tokens signed with
 * DIR/pki/sa.key; RBAC decides what they may do. Prints one line when ready;
 * SIGTERM or SIGINT stop it cleanly.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pino } from "pino";
import { startCompactor } from "../apiserver/compactor.js";
import { ApiServer, loadTokenFile } from "../apiserver/index.js";
import { createHttpClient, writeKubeconfig } from "../client/index.js";
import { runCoreControllers } from "../controllers/index.js";
import { openSqliteBackend } from "../storage/index.js";
import { intFlag, parseArgs } from "./args.js";
import { ensurePki } from "./data-dir.js";

export async function up(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const dataDir = resolve(args.flags.get("data-dir") ?? ".hearth");
  const port = intFlag(args, "port", 6443);
  const host = args.flags.get("host") ?? "127.0.0.1";
  const log = pino({ name: "hearth" }, pino.destination(2));
  mkdirSync(dataDir, { recursive: true });

  const pki = await ensurePki(dataDir, {
    dns: ["localhost", "hearth", "kubernetes.default.svc"],
    ips: ["127.0.0.1", ...(host !== "127.0.0.1" && host !== "0.0.0.0" ? [host] : [])],
  });
  const backend = await openSqliteBackend(join(dataDir, "state.db"));
  const controller = new AbortController();
  const logError = (msg: string, err?: unknown) => log.error({ err }, msg);
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
  startCompactor(
    backend,
    {
      intervalMs: intFlag(args, "compaction-interval-seconds", 300) * 1000,
      retain: intFlag(args, "compaction-retain", 1000),
      log: logError,
    },
    controller.signal,
  );
  const server_url = `https://${host === "0.0.0.0" ? "127.0.0.1" : host}:${server.port}`;
  const kubeconfig = join(dataDir, "admin.kubeconfig");
  await writeKubeconfig(kubeconfig, {
    server: server_url,
    caPem: pki.ca.certPem,
    token: pki.adminToken,
    contextName: "hearth",
  });

  // The core controllers reach the API like any client, with the admin's credentials.
  const controllerClient = createHttpClient({
    server: server_url,
    caPem: pki.ca.certPem,
    token: pki.adminToken,
    userAgent: "hearth-controller-manager",
  });
  const controllersDone = runCoreControllers(controllerClient, controller.signal, {
    log: logError,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    controller.abort();
    await controllersDone;
    controllerClient.close();
    await server.closed();
    await backend.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.stdout.write(`hearth is ready: ${server_url} (kubectl --kubeconfig ${kubeconfig})\n`);
}
