/**
 * Test support only (not exported by the facade): a tiny scripted HTTP(S) server
 * standing in for the apiserver, recording each request and counting open
 * connections so tests can prove nothing outlives them.
 */
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: RecordedRequest, res: http.ServerResponse) => void;

export interface ApiResourceEntry {
  name: string;
  kind: string;
  namespaced: boolean;
}

export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  handler: Handler = (_req, res) => sendJson(res, 404, statusBody(404, "NotFound", "not found"));
  /** Discovery documents by path (`/api/v1`, `/apis/g/v`), answered before `handler`. */
  readonly discovery = new Map<string, ApiResourceEntry[]>();
  readonly #server: http.Server;
  readonly #sockets = new Set<Socket>();
  #url = "";

  private constructor(tls?: https.ServerOptions) {
    const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const recorded = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        this.requests.push(recorded);
        const resources = this.discovery.get(recorded.url);
        if (recorded.method === "GET" && resources) {
          sendJson(res, 200, { kind: "APIResourceList", resources });
        } else {
          this.handler(recorded, res);
        }
      });
    };
    this.#server = tls ? https.createServer(tls, listener) : http.createServer(listener);
    const track = (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    };
    this.#server.on(tls ? "secureConnection" : "connection", track);
  }

  static async start(tls?: https.ServerOptions): Promise<FakeApiServer> {
    const fake = new FakeApiServer(tls);
    await new Promise<void>((resolve) => fake.#server.listen(0, "127.0.0.1", resolve));
    const { port } = fake.#server.address() as AddressInfo;
    fake.#url = `${tls ? "https" : "http"}://127.0.0.1:${port}`;
    return fake;
  }

  get url(): string {
    return this.#url;
  }

  /** Connections the server still holds open. */
  get openConnections(): number {
    return this.#sockets.size;
  }

  /** The requests other than discovery. */
  get calls(): RecordedRequest[] {
    return this.requests.filter((r) => !this.discovery.has(r.url));
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

export function sendJson(res: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function statusBody(code: number, reason: string, message: string) {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code,
  };
}

/** Polls `cond` until it holds, failing after `timeoutMs`. */
export async function waitFor(
  cond: () => boolean,
  what: string | (() => string),
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits until the process holds no TCP socket or server, i.e. nothing leaked. */
export async function waitForNoSockets(): Promise<void> {
  const tcp = () => process.getActiveResourcesInfo().filter((r) => r.startsWith("TCP"));
  await waitFor(
    () => tcp().length === 0,
    () => `sockets to close (open: ${tcp().join(", ")})`,
  );
}

/**
 * Closes the clients, requires them to have dropped every connection to the
 * server (a client that leaks sockets fails here, not at the server's close),
 * then stops the server and waits for the process to hold no socket.
 */
export async function shutdown(server: FakeApiServer, ...clients: { close(): void }[]) {
  for (const c of clients) c.close();
  try {
    await waitFor(() => server.openConnections === 0, "the clients to close their connections");
  } finally {
    await server.stop();
  }
  await waitForNoSockets();
}
