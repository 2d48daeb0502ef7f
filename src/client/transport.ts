/**
 * The HTTP(S) connection to an apiserver: one keep-alive Agent carrying the TLS
 * trust (CA, client certificate, insecure flag), default headers (bearer token,
 * User-Agent), buffered requests and streamed requests for watches. `close()`
 * destroys the agent and with it every socket, idle or in use.
 */
import http from "node:http";
import https from "node:https";
import type { RawResponse } from "./interface.js";

/** Where an apiserver is and how to authenticate to it. */
export interface ClientConfig {
  /** `https://host:port` or `http://host:port`, optionally with a path prefix. */
  server: string;
  /** PEM of the CA that signed the server's certificate; default: the system roots. */
  caPem?: string;
  token?: string;
  certPem?: string;
  keyPem?: string;
  /** Skip verification of the server's certificate. */
  insecure?: boolean;
  userAgent?: string;
}

/** Enough for many concurrent watches plus ordinary requests from one process. */
const MAX_SOCKETS = 64;

export class Transport {
  readonly #agent: http.Agent;
  readonly #request: typeof http.request;
  readonly #hostname: string;
  readonly #port: string;
  readonly #prefix: string;
  readonly #headers: Record<string, string>;

  constructor(config: ClientConfig) {
    const url = new URL(config.server);
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new Error(`cannot reach server "${config.server}": only http and https are supported`);
    }
    const common = { keepAlive: true, maxSockets: MAX_SOCKETS };
    if (url.protocol === "https:") {
      this.#agent = new https.Agent({
        ...common,
        ...(config.caPem ? { ca: config.caPem } : {}),
        ...(config.certPem ? { cert: config.certPem } : {}),
        ...(config.keyPem ? { key: config.keyPem } : {}),
        rejectUnauthorized: config.insecure !== true,
      });
      this.#request = https.request;
    } else {
      this.#agent = new http.Agent(common);
      this.#request = http.request;
    }
    // URL keeps IPv6 literals bracketed; the socket layer wants them bare.
    this.#hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
    this.#port = url.port;
    this.#prefix = url.pathname.replace(/\/+$/, "");
    this.#headers = {
      accept: "application/json",
      "user-agent": config.userAgent ?? "hearth-client",
      ...(config.token ? { authorization: `Bearer ${config.token}` } : {}),
    };
  }

  /**
   * Sends a request and resolves once its response headers arrive, leaving the
   * body to the caller to read (a watch). Aborting `signal` destroys the request.
   */
  open(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<http.IncomingMessage> {
    const allHeaders: Record<string, string> = { ...this.#headers, ...lowerKeys(headers) };
    if (body !== undefined) {
      allHeaders["content-type"] ??= "application/json";
      allHeaders["content-length"] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      const req = this.#request({
        hostname: this.#hostname,
        ...(this.#port ? { port: this.#port } : {}),
        method,
        path: this.#prefix + path,
        headers: allHeaders,
        agent: this.#agent,
        ...(signal ? { signal } : {}),
      });
      req.on("response", resolve);
      // Stays attached after the response: a later abort or reset must not be unhandled.
      req.on("error", reject);
      req.end(body);
    });
  }

  /** Sends a request and reads the whole response body. */
  async send(
    method: string,
    path: string,
    body?: string,
    headers?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<RawResponse> {
    return readAll(await this.open(method, path, body, headers, signal));
  }

  /** Destroys every socket, idle or in use; requests in flight fail. */
  close(): void {
    this.#agent.destroy();
  }
}

/** Reads a whole response. */
export async function readAll(res: http.IncomingMessage): Promise<RawResponse> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    body: Buffer.concat(chunks).toString("utf8"),
  };
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}
