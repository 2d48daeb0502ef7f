/**
 * The agent's node API, which the apiserver proxies to (the kubelet's port).
 * Container logs for `pods/log`:
 * `GET /containerLogs/<namespace>/<pod>/<container>` with `follow`, `previous`, `tailLines`, `limitBytes`, `sinceSeconds`,
 * `sinceTime`, `timestamps`, as the kubelet serves it, from the records the
 * runtime writes in the CRI logging format (cri-log.ts). Given a NodeStats,
 * resource usage: `GET /stats/summary` (the Summary API's JSON) and
 * `GET /metrics/resource` (Prometheus text), see stats/. Given a
 * StreamServer, `/exec`, `/attach` and `/portForward` on upgraded
 * connections (streaming/). It listens on the node's InternalIP only
 * (127.0.0.1 unless `--node-ip` says otherwise). With `tls` it serves HTTPS
 * and lets in only a client certificate from the cluster CA with the
 * apiserver's name; without, HTTP and the bearer token the agent publishes in
 * its Node's annotations (which only those who may read Nodes can see).
 * Errors are `Status` objects (plain text on a refused upgrade, as the kubelet).
 */
import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { TLSSocket } from "node:tls";
import { readCriLog } from "./cri-log.js";
import type { LogOptions, LogRead } from "./log-reader.js";
import type { NodeStats } from "./stats/index.js";
import { refuseUpgrade, StreamServer } from "./streaming/index.js";

const STATS_PATHS = new Set(["/stats/summary", "/metrics/resource"]);

export type LogTarget =
  | {
      ok: true;
      file: string;
      /** True once the run has ended (then follow stops at the end). */
      done(): boolean;
    }
  | { ok: false; code: number; message: string };

export type LogLookup = (
  namespace: string,
  pod: string,
  container: string,
  previous: boolean,
) => LogTarget;

function status(res: http.ServerResponse, code: number, message: string): void {
  const reason =
    code === 401
      ? "Unauthorized"
      : code === 404
        ? "NotFound"
        : code === 400
          ? "BadRequest"
          : "InternalError";
  const body = JSON.stringify({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code,
  });
  res.writeHead(code, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * With TLS, the caller's certificate, verified against the client CA, must
 * name one of the allowed users (the apiserver's client certificate, kube's
 * `--kubelet-client-certificate`); without, the bearer token.
 */
function authorized(req: http.IncomingMessage, token: string, tls?: NodeApiTls): boolean {
  if (tls) {
    const socket = req.socket as TLSSocket;
    if (!socket.authorized) return false;
    const cn = socket.getPeerCertificate().subject?.CN;
    return typeof cn === "string" && tls.allowedUsers.includes(cn);
  }
  const got = Buffer.from(req.headers.authorization ?? "");
  const want = Buffer.from(`Bearer ${token}`);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** The options of a query, or why they are not valid. */
function options(q: URLSearchParams): LogOptions | string {
  const num = (k: string) => (q.get(k) !== null ? Number(q.get(k)) : undefined);
  const out: LogOptions = {
    timestamps: q.get("timestamps") === "true",
    follow: q.get("follow") === "true",
  };
  const tail = num("tailLines");
  const limit = num("limitBytes");
  const since = num("sinceSeconds");
  const sinceTime = q.get("sinceTime");
  if (tail !== undefined) out.tailLines = tail;
  if (limit !== undefined) out.limitBytes = limit;
  if (since !== undefined) out.sinceSeconds = since;
  if (sinceTime !== null) {
    out.sinceTime = new Date(sinceTime);
    if (Number.isNaN(out.sinceTime.getTime()))
      return `sinceTime: ${JSON.stringify(sinceTime)} is not an RFC 3339 time`;
  }
  return out;
}

/** The node API over HTTPS: its serving pair and whom it lets in. */
export interface NodeApiTls {
  certPem: string;
  keyPem: string;
  /** The CA that signs the callers' client certificates (the cluster CA). */
  clientCAPem: string;
  /** Common names of the client certificates let in. */
  allowedUsers: string[];
  /** The CA of the serving pair when it is the agent's own, published on the Node for the apiserver. */
  servingCAPem?: string;
}

export interface LogServerOptions {
  /** Serves HTTPS, callers authenticated by client certificate, instead of HTTP with the token. */
  tls?: NodeApiTls;
  /** Serves `/exec`, `/attach` and `/portForward` on upgraded connections. */
  streams?: StreamServer;
  /** How often a followed log is read again (ms); 200 unless given. */
  followPollMs?: number;
  /** Serves `/stats/summary` and `/metrics/resource` when given. */
  stats?: NodeStats;
}

export class LogServer {
  private readonly followPollMs: number;

  constructor(
    private readonly lookup: LogLookup,
    private readonly token: string,
    private readonly options: LogServerOptions = {},
  ) {
    this.followPollMs = options.followPollMs ?? 200;
  }

  /** Listens on `host` (a free port unless given); stops when `signal` aborts. */
  async start(signal: AbortSignal, port = 0, host = "127.0.0.1"): Promise<number> {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) =>
      this.handle(req, res, signal);
    const tls = this.options.tls;
    const server = tls
      ? https.createServer(
          {
            cert: tls.certPem,
            key: tls.keyPem,
            ca: tls.clientCAPem,
            requestCert: true,
            rejectUnauthorized: false,
          },
          handler,
        )
      : http.createServer(handler);
    server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(req, socket, head),
    );
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    signal.addEventListener(
      "abort",
      () => {
        server.close();
        server.closeAllConnections();
      },
      { once: true },
    );
    return (server.address() as AddressInfo).port;
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(req.url ?? "/", "http://agent").pathname;
    const streams = this.options.streams;
    if (!authorized(req, this.token, this.options.tls)) refuseUpgrade(socket, 401, "Unauthorized");
    else if (!streams || !StreamServer.handles(path))
      refuseUpgrade(socket, 404, "404 page not found");
    else void streams.handleUpgrade(req, socket, head);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, signal: AbortSignal): void {
    if (!authorized(req, this.token, this.options.tls)) {
      status(res, 401, "Unauthorized");
      return;
    }
    const url = new URL(req.url ?? "/", "http://agent");
    const stats = this.options.stats;
    if (stats && req.method === "GET" && STATS_PATHS.has(url.pathname)) {
      void this.serveStats(stats, url.pathname, res);
      return;
    }
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    if (req.method !== "GET" || parts[0] !== "containerLogs" || parts.length !== 4) {
      status(res, 404, "not found");
      return;
    }
    const [, namespace, pod, container] = parts as [string, string, string, string];
    const target = this.lookup(
      namespace,
      pod,
      container,
      url.searchParams.get("previous") === "true",
    );
    if (!target.ok) {
      status(res, target.code, target.message);
      return;
    }
    const opts = options(url.searchParams);
    if (typeof opts === "string") {
      status(res, 400, opts);
      return;
    }
    const read = readCriLog(target.file, opts);
    res.writeHead(200, { "Content-Type": "text/plain", "Cache-Control": "no-cache" });
    if (!opts.follow) {
      res.end(read.text);
      return;
    }
    res.flushHeaders();
    if (read.text) res.write(read.text);
    this.follow(target, read, res, signal);
  }

  private async serveStats(
    stats: NodeStats,
    path: string,
    res: http.ServerResponse,
  ): Promise<void> {
    let body: string;
    let type: string;
    try {
      if (path === "/stats/summary") {
        body = await stats.summary();
        type = "application/json";
      } else {
        body = await stats.resourceMetrics();
        type = stats.metricsContentType;
      }
    } catch (e) {
      status(res, 500, `cannot read the node's resource usage: ${(e as Error).message}`);
      return;
    }
    res.writeHead(200, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  }

  private follow(
    target: Extract<LogTarget, { ok: true }>,
    read: LogRead,
    res: http.ServerResponse,
    signal: AbortSignal,
  ): void {
    let closed = false;
    res.once("close", () => {
      closed = true;
    });
    const tick = () => {
      if (closed || signal.aborted) return void res.end();
      const done = target.done();
      const text = read.more(done);
      if (text) res.write(text);
      if (done) return void res.end();
      setTimeout(tick, this.followPollMs).unref();
    };
    setTimeout(tick, this.followPollMs).unref();
  }
}
