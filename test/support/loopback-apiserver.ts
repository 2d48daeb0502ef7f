/**
 * The client tests' server: a real Hearth apiserver in this process on loopback
 * (plain HTTP, or HTTPS with a CA made for it), over a storage backend a test may
 * hold (GatedBackend: requests stay in flight until released), with a WireTap —
 * a TCP pipe in front of it that forwards every byte unchanged and records the
 * connections and the request heads and bodies it carried, so tests can assert
 * what went over the wire and that nothing outlived them.
 */
import { setMaxListeners } from "node:events";
import net from "node:net";
import { ApiServer, type ApiServerOptions } from "../../src/apiserver/index.js";
import { createCA, issueLeaf, type KeyPair } from "../../src/pki/index.js";
import type { KeyValue, ListOptions, ListResult } from "../../src/storage/index.js";
import { CountingBackend } from "./envtest.js";

/** A memory backend whose reads and writes under `gatedPrefix` wait while `hold` is on. */
export class GatedBackend extends CountingBackend {
  gatedPrefix = "/registry/core/configmaps/";
  hold = false;
  /** Calls waiting now; each resolves when `release()` is called. */
  readonly waiting: (() => void)[] = [];

  release(): void {
    this.hold = false;
    for (const go of this.waiting.splice(0)) go();
  }

  async #gate(key: string): Promise<void> {
    if (!this.hold || !key.startsWith(this.gatedPrefix)) return;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  override async get(key: string): Promise<KeyValue | undefined> {
    await this.#gate(key);
    return super.get(key);
  }
  override async list(prefix: string, options?: ListOptions): Promise<ListResult> {
    await this.#gate(prefix);
    return super.list(prefix, options);
  }
  override async create(key: string, value: string): Promise<KeyValue> {
    await this.#gate(key);
    return super.create(key, value);
  }
  override async update(key: string, value: string, expected: number): Promise<KeyValue> {
    await this.#gate(key);
    return super.update(key, value, expected);
  }
  override async delete(key: string, expected?: number): Promise<KeyValue> {
    await this.#gate(key);
    return super.delete(key, expected);
  }
}

/** One HTTP request as it crossed the wire. */
export interface WireRequest {
  method: string;
  url: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/** Splits the HTTP/1.1 requests out of one connection's bytes (bodies by content-length). */
function parseRequests(input: Buffer, out: WireRequest[]): Buffer {
  let buffered = input;
  for (;;) {
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) return buffered;
    const [line = "", ...fields] = buffered.subarray(0, end).toString("latin1").split("\r\n");
    const headers: Record<string, string> = {};
    for (const f of fields) {
      const colon = f.indexOf(":");
      headers[f.slice(0, colon).trim().toLowerCase()] = f.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    if (buffered.length < end + 4 + length) return buffered;
    const [method = "", url = ""] = line.split(" ");
    const body = buffered.subarray(end + 4, end + 4 + length).toString("utf8");
    out.push({ method, url, headers, body });
    buffered = buffered.subarray(end + 4 + length);
  }
}

export class WireTap {
  readonly requests: WireRequest[] = [];
  /** Connections accepted so far. */
  connections = 0;
  /** Bytes from clients wait here while partitioned, per connection. */
  #partitioned = false;
  readonly #held = new Map<net.Socket, Buffer[]>();
  readonly #upstreams = new Map<net.Socket, net.Socket>();
  readonly #open = new Set<net.Socket>();
  readonly #server: net.Server;
  port = 0;

  constructor(target: { host: string; port: number }, parse: boolean) {
    this.#server = net.createServer((client) => {
      this.connections++;
      this.#open.add(client);
      this.#held.set(client, []);
      const upstream = net.connect(target);
      let buffered: Buffer = Buffer.alloc(0);
      client.on("data", (chunk: Buffer) => {
        if (parse) buffered = parseRequests(Buffer.concat([buffered, chunk]), this.requests);
        if (this.#partitioned) this.#held.get(client)?.push(chunk);
        else upstream.write(chunk);
      });
      upstream.pipe(client);
      const done = () => {
        client.destroy();
        upstream.destroy();
        this.#open.delete(client);
        this.#held.delete(client);
        this.#upstreams.delete(client);
      };
      client.on("close", done).on("error", done);
      upstream.on("close", done).on("error", done);
      this.#upstreams.set(client, upstream);
    });
  }

  /**
   * Cuts every open connection (a network failure: streams end mid-way) and
   * holds what clients send afterwards until `heal()`.
   */
  partition(): void {
    this.#partitioned = true;
    for (const s of this.#open) s.destroy();
  }

  /** Forwards what was held and everything after it. */
  heal(): void {
    this.#partitioned = false;
    for (const [client, chunks] of this.#held) {
      for (const c of chunks.splice(0)) this.#upstreams.get(client)?.write(c);
    }
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.port = (this.#server.address() as net.AddressInfo).port;
  }

  /** Connections open now. */
  get openConnections(): number {
    return this.#open.size;
  }

  async close(): Promise<void> {
    for (const s of this.#open) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

export interface LoopbackApiServer {
  /** The apiserver through the tap. */
  url: string;
  /** The apiserver itself. */
  directUrl: string;
  backend: GatedBackend;
  tap: WireTap;
  /** Every request through the tap other than discovery (`/api`, `/apis…` documents). */
  calls(): WireRequest[];
  stop(): Promise<void>;
}

const DISCOVERY = /^\/api(\/v1)?$|^\/apis(\/[^/?]+){0,2}$/;

/**
 * Starts an apiserver on a GatedBackend with `opts` (tokens, TLS, client CAs…)
 * and a WireTap in front of it. The tap parses requests only over plain HTTP.
 */
export async function startLoopbackApiServer(
  opts: Partial<Omit<ApiServerOptions, "backend" | "port">> = {},
): Promise<LoopbackApiServer> {
  const backend = new GatedBackend();
  const server = new ApiServer({ tokens: new Map(), ...opts, backend, port: 0 });
  const serving = new AbortController();
  setMaxListeners(0, serving.signal);
  await server.start(serving.signal);
  const scheme = opts.tls ? "https" : "http";
  const tap = new WireTap({ host: "127.0.0.1", port: server.port }, !opts.tls);
  await tap.listen();
  let stopped: Promise<void> | undefined;
  const stop = async () => {
    backend.release();
    await tap.close();
    serving.abort();
    await server.closed();
    await backend.close();
  };
  return {
    url: `${scheme}://127.0.0.1:${tap.port}`,
    directUrl: `${scheme}://127.0.0.1:${server.port}`,
    backend,
    tap,
    calls: () => tap.requests.filter((r) => !DISCOVERY.test(r.url)),
    /** Stops everything; a second call waits for the first. */
    stop() {
      stopped ??= stop();
      return stopped;
    },
  };
}

/** A CA, a serving certificate for 127.0.0.1 it signed, and a client certificate it signed. */
export async function loopbackPki(clientName: string): Promise<{
  ca: KeyPair;
  serving: KeyPair;
  client: KeyPair;
}> {
  const ca = await createCA("hearth-test-ca");
  const serving = await issueLeaf(ca, {
    commonName: "hearth-apiserver",
    dnsNames: ["localhost"],
    ipAddresses: ["127.0.0.1"],
    usage: ["server"],
  });
  const client = await issueLeaf(ca, {
    commonName: clientName,
    organization: ["system:masters"],
    usage: ["client"],
  });
  return { ca, serving, client };
}

/**
 * Polls `cond` until it holds (a throw counts as not yet), failing after
 * `timeoutMs` with `what` (evaluated then) and the last error.
 */
export async function waitUntil(
  cond: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (await cond()) return;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      const why = last === undefined ? "" : `: ${String(last)}`;
      throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits until the process holds no TCP socket or server, i.e. nothing leaked. */
export async function waitForNoSockets(): Promise<void> {
  const tcp = () => process.getActiveResourcesInfo().filter((r) => r.startsWith("TCP"));
  await waitUntil(
    () => tcp().length === 0,
    () => `sockets to close (open: ${tcp().join(", ")})`,
  );
}

/**
 * Closes the clients, requires them to have dropped every connection through the
 * tap (a client that leaks sockets fails here), stops the server and waits for
 * the process to hold no socket.
 */
export async function shutdown(server: LoopbackApiServer, ...clients: { close(): void }[]) {
  for (const c of clients) c.close();
  try {
    await waitUntil(
      () => server.tap.openConnections === 0,
      "the clients to close their connections",
    );
  } finally {
    await server.stop();
  }
  await waitForNoSockets();
}
