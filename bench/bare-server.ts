/**
 * The baseline the apiserver's create path is measured against: a bare node:https
 * server (same certificate, keep-alive) whose only handler reads the body,
 * JSON.parses it and inserts it into one SQLite table with better-sqlite3, with
 * the same journal settings as the storage backend (WAL, synchronous=NORMAL). It
 * answers 201 with the stored JSON, as a create does. No routing, no auth, no
 * validation, no revision log: what any HTTPS+JSON+SQLite write costs in Node.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";

export interface BareServerOptions {
  dbPath: string;
  certPem: string;
  keyPem: string;
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
  const db = new Database(opts.dbPath);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS objects (name TEXT PRIMARY KEY, value TEXT NOT NULL)");
  const insert = db.prepare<[string, string]>("INSERT INTO objects (name, value) VALUES (?, ?)");

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let code = 201;
      let text: string;
      try {
        const obj = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          metadata?: { name?: string };
        };
        text = JSON.stringify(obj);
        insert.run(obj.metadata?.name ?? "", text);
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
  const closed = new Promise<void>((resolve) =>
    server.once("close", () => {
      db.close();
      resolve();
    }),
  );
  const stop = () => {
    server.close();
    server.closeAllConnections();
  };
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  return { port: (server.address() as AddressInfo).port, closed };
}
