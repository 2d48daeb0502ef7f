/**
 * A lean HTTPS load generator for create throughput: one keep-alive TLS socket
 * per closed-loop worker, each request written as one pre-formatted HTTP/1.1
 * head plus its body, each response read only as far as its status line and
 * Content-Length. It does what wrk or h2load would, in-process: the load
 * generator shares the machine's cores with the server and etcd, so the less
 * CPU it spends per request (measured: about 0.2 ms, against 0.5 ms for
 * node:https's Agent and IncomingMessage streams), the more the figures are the server's own. Responses
 * without a Content-Length (chunked) are not understood and fail the request.
 */
import { connect, type TLSSocket } from "node:tls";

export interface PostTarget {
  host: string;
  port: number;
  caPem: string;
  token: string;
}

interface Response {
  status: number;
  body: string;
}

const HEADER_END = Buffer.from("\r\n\r\n");

/** One TLS connection that carries one request at a time. */
class Connection {
  readonly #socket: TLSSocket;
  readonly #head: string;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: { resolve: (r: Response) => void; reject: (e: Error) => void } | undefined;
  #closed: Error | undefined;
  readonly ready: Promise<void>;

  constructor(target: PostTarget, path: string) {
    this.#head =
      `POST ${path} HTTP/1.1\r\nhost: ${target.host}:${target.port}\r\n` +
      `authorization: Bearer ${target.token}\r\naccept: application/json\r\n` +
      "content-type: application/json\r\ncontent-length: ";
    this.#socket = connect({ host: target.host, port: target.port, ca: target.caPem });
    this.#socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.#socket.once("secureConnect", resolve);
      this.#socket.once("error", reject);
    });
    this.#socket.on("data", (chunk: Buffer) => this.#read(chunk));
    this.#socket.on("error", (e) => this.#fail(e));
    this.#socket.on("close", () => {
      this.#closed = new Error("connection closed");
      this.#fail(this.#closed);
    });
  }

  post(body: string): Promise<Response> {
    if (this.#closed) return Promise.reject(this.#closed);
    if (this.#waiting) return Promise.reject(new Error("a request is already in flight"));
    const bytes = Buffer.from(body);
    const sent = new Promise<Response>((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
    this.#socket.write(`${this.#head}${bytes.length}\r\n\r\n`);
    this.#socket.write(bytes);
    return sent;
  }

  close(): void {
    this.#socket.destroy();
  }

  #read(chunk: Buffer): void {
    this.#buffer = this.#buffer.length > 0 ? Buffer.concat([this.#buffer, chunk]) : chunk;
    const end = this.#buffer.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.#buffer.toString("latin1", 0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.#fail(new Error(`response without Content-Length: ${head.split("\r\n")[0]}`));
      return;
    }
    const bodyEnd = end + HEADER_END.length + Number(length[1]);
    if (this.#buffer.length < bodyEnd) return;
    const response = {
      status: Number(head.slice("HTTP/1.1 ".length, "HTTP/1.1 ".length + 3)),
      body: this.#buffer.toString("utf8", end + HEADER_END.length, bodyEnd),
    };
    this.#buffer = this.#buffer.subarray(bodyEnd);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve(response);
  }

  #fail(e: Error): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(e);
  }
}

export interface PostPool {
  /** POSTs `body` on a free connection; anything but 201 Created throws. */
  create(body: string): Promise<void>;
  close(): void;
}

/** Opens `size` connections to `path` (one per closed-loop worker). */
export async function openPostPool(
  target: PostTarget,
  path: string,
  size: number,
): Promise<PostPool> {
  const all = Array.from({ length: size }, () => new Connection(target, path));
  const close = () => {
    for (const c of all) c.close();
  };
  try {
    await Promise.all(all.map((c) => c.ready));
  } catch (e) {
    close();
    throw e;
  }
  const free = [...all];
  return {
    async create(body) {
      const connection = free.pop();
      if (!connection) throw new Error("more requests in flight than connections");
      try {
        const res = await connection.post(body);
        if (res.status !== 201) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 200)}`);
      } finally {
        free.push(connection);
      }
    },
    close,
  };
}
