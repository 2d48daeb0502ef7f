/**
 * The baseline the apiserver's create path is measured against: a bare node:https
 * server (same certificate, keep-alive) whose only handler reads the body,
 * JSON.parses it and inserts it into one SQLite table with better-sqlite3, with
 * the same journal settings as the storage backend (WAL, synchronous=NORMAL) —
 * or, with `etcd`, writes it with the one create-if-absent transaction of the
 * etcd backend. It answers 201 with the stored JSON, as a create does. No
 * routing, no auth, no validation, no revision log: what any HTTPS+JSON write to
 * that store costs in Node.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { openEtcdBackend } from "../src/storage/index.js";

export interface BareServerOptions {
  dbPath: string;
  certPem: string;
  keyPem: string;
  /** Store in this etcd (through the etcd backend's create) instead of SQLite at dbPath. */
  etcd?: { endpoints: string[]; prefix: string };
}

interface BareStore {
  /** Stores `value` under `name`; throws if the name is taken (SQLite at once, etcd via the promise). */
  insert(name: string, value: string): undefined | Promise<unknown>;
  close(): Promise<void>;
}

function sqliteStore(dbPath: string): BareStore {
  const db = new Database(dbPath);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS objects (name TEXT PRIMARY KEY, value TEXT NOT NULL)");
  const insert = db.prepare<[string, string]>("INSERT INTO objects (name, value) VALUES (?, ?)");
  return {
    insert: (name, value) => {
      insert.run(name, value);
      return undefined;
    },
    close: async () => {
      db.close();
    },
  };
}

async function etcdStore(etcd: NonNullable<BareServerOptions["etcd"]>): Promise<BareStore> {
  const backend = await openEtcdBackend(etcd);
  return {
    insert: (name, value) => backend.create(`/bare/${name}`, value),
    close: () => backend.close(),
  };
}

export interface RunningServer {
  port: number;
  /** Resolves once the listener and the database are closed. */
  closed: Promise<void>;
}

/** Listens on 127.0.0.1 (a free port) until `signal` aborts. */
export async function startBareServer(
  opts: BareServerOptions,
  signal: AbortSignal,
): Promise<RunningServer> {
  const store = opts.etcd ? await etcdStore(opts.etcd) : sqliteStore(opts.dbPath);

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      let code = 201;
      let text: string;
      try {
        const obj = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          metadata?: { name?: string };
        };
        text = JSON.stringify(obj);
        const stored = store.insert(obj.metadata?.name ?? "", text);
        if (stored) await stored;
      } catch (e) {
        code = e instanceof SyntaxError ? 400 : 409;
        text = JSON.stringify({ message: e instanceof Error ? e.message : String(e) });
      }
      res.writeHead(code, {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(text),
      });
      res.end(text);
    });
  };
  const server = createServer(
    { cert: opts.certPem, key: opts.keyPem, keepAliveTimeout: 60_000 },
    handler,
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const closed = new Promise<void>((resolve, reject) =>
    server.once("close", () => void store.close().then(resolve, reject)),
  );
  const stop = () => {
    server.close();
    server.closeAllConnections();
  };
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  return { port: (server.address() as AddressInfo).port, closed };
}
