/**
 * Worker-thread entry that runs one server under test — the Hearth apiserver on
 * the SQLite backend (or on etcd, with `etcd`), or the bare baseline — so that the server has a thread of
 * its own and does not share an event loop with the load generator, as with real
 * clients in other processes. Protocol: the worker posts {type:"listening", port}
 * (or {type:"error"}); on the message "stop" it stops the server, closes its
 * database, posts {type:"stopped"} and lets the thread end.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ApiServer } from "../src/apiserver/index.js";
import { openEtcdBackend, openSqliteBackend } from "../src/storage/index.js";
import { startBareServer } from "./bare-server.js";

export interface WorkerConfig {
  kind: "api" | "bare";
  dbPath: string;
  certPem: string;
  keyPem: string;
  token: string;
  /** Serve from this etcd instead of SQLite at dbPath. */
  etcd?: { endpoints: string[]; prefix: string };
}

export type WorkerMessage =
  | { type: "listening"; port: number }
  | { type: "stopped" }
  | { type: "error"; message: string };

async function start(
  cfg: WorkerConfig,
  signal: AbortSignal,
): Promise<{ port: number; stopped: () => Promise<void> }> {
  if (cfg.kind === "bare") {
    const bare = await startBareServer(cfg, signal);
    return { port: bare.port, stopped: () => bare.closed };
  }
  const backend = cfg.etcd ? await openEtcdBackend(cfg.etcd) : await openSqliteBackend(cfg.dbPath);
  const server = new ApiServer({
    backend,
    tls: { certPem: cfg.certPem, keyPem: cfg.keyPem },
    tokens: new Map([[cfg.token, "bench"]]),
    host: "127.0.0.1",
    port: 0,
    log: (msg, err) => console.error(`apiserver: ${msg}`, err ?? ""),
  });
  await server.start(signal);
  const stopped = async () => {
    await server.closed();
    await backend.close();
  };
  return { port: server.port, stopped };
}

const port = parentPort!;
const post = (m: WorkerMessage) => port.postMessage(m);
const abort = new AbortController();
try {
  const server = await start(workerData as WorkerConfig, abort.signal);
  port.on("message", (msg: unknown) => {
    if (msg !== "stop") return;
    abort.abort();
    void server.stopped().then(
      () => {
        post({ type: "stopped" });
        port.close();
      },
      (e: unknown) => post({ type: "error", message: String(e) }),
    );
  });
  post({ type: "listening", port: server.port });
} catch (e) {
  post({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  abort.abort();
  port.close();
}
