/**
 * Sends one fuzz request exactly as generated: through node:http with the
 * request target untouched (fetch and URL would resolve `%2e%2e` and `//`), or
 * as raw bytes on a fresh socket. A watch is hung up on once its status is in;
 * every request has a deadline, and "no answer" is a result, not a throw.
 */
import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { type FuzzRequest, mayWatch } from "./request.js";

export interface Answer {
  /** 0: no answer (the connection closed or the deadline passed first). */
  status: number;
  /** The first 64 KiB of the body. */
  text: string;
  /** Why there was no answer. */
  error?: string;
}

const KEEP = 64 * 1024;

export class Sender {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly host: string;
  private readonly port: number;

  constructor(
    url: string,
    private readonly deadlineMs = 20_000,
  ) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port);
  }

  send(r: FuzzRequest): Promise<Answer> {
    return r.raw ? this.sendRaw(r.raw) : this.sendHttp(r);
  }

  close(): void {
    this.agent.destroy();
  }

  private sendHttp(r: FuzzRequest): Promise<Answer> {
    const watch = mayWatch(r);
    return new Promise<Answer>((resolve) => {
      let settled = false;
      const finish = (a: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(a);
      };
      let req: ReturnType<typeof httpRequest>;
      try {
        req = httpRequest({
          host: this.host,
          port: this.port,
          method: r.method,
          path: r.target,
          headers: { ...r.headers, ...(r.body ? { "Content-Length": String(r.body.length) } : {}) },
          agent: watch ? false : this.agent,
        });
      } catch (e) {
        // Node's client refused to send it (an invalid header, say): nothing reached the server.
        resolve({ status: -1, text: "", error: `not sent: ${(e as Error).message}` });
        return;
      }
      const timer = setTimeout(() => {
        req.destroy();
        finish({ status: 0, text: "", error: `no answer within ${this.deadlineMs} ms` });
      }, this.deadlineMs);
      req.on("error", (e) => finish({ status: 0, text: "", error: e.message }));
      req.on("response", (res) => {
        const status = res.statusCode ?? 0;
        if (watch && status === 200) {
          // The stream is open: that is all a watch tells.
          res.destroy();
          req.destroy();
          finish({ status, text: "(watch stream)" });
          return;
        }
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on("data", (c: Buffer) => {
          if (kept < KEEP) chunks.push(c);
          kept += c.length;
        });
        res.on("end", () =>
          finish({ status, text: Buffer.concat(chunks).subarray(0, KEEP).toString("utf8") }),
        );
        res.on("error", (e) => finish({ status, text: "", error: e.message }));
      });
      req.end(r.body);
    });
  }

  private sendRaw(bytes: Buffer): Promise<Answer> {
    return new Promise<Answer>((resolve) => {
      const socket = connect(this.port, this.host);
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => socket.destroy(new Error("deadline")), this.deadlineMs);
      socket.on("data", (c: Buffer) => chunks.push(c));
      const done = (error?: Error) => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("latin1");
        const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
        resolve({
          status: m ? Number(m[1]) : 0,
          text: text.slice(0, KEEP),
          ...(m ? {} : { error: error?.message ?? "closed without an answer" }),
        });
      };
      socket.on("error", (e) => done(e));
      socket.on("close", () => done());
      socket.on("connect", () => socket.end(bytes));
    });
  }
}
