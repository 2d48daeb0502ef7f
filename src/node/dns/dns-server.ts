/**
 * The cluster DNS server's sockets: UDP and TCP (RFC 1035's two-byte length
 * before each message, several queries per connection, closed after 10 s
 * idle) on one address and port, each message answered by `respond`.
 * `listen` binds both or neither; `close` closes the sockets and every open
 * connection.
 */
import { createSocket, type Socket } from "node:dgram";
import { createServer, type Server, type Socket as TcpSocket } from "node:net";
import { type Responder, respond } from "./respond.js";

const TCP_IDLE_MS = 10_000;

export class DnsServer {
  private udp?: Socket;
  private tcp?: Server;
  private readonly connections = new Set<TcpSocket>();
  /** The bound port (the one asked for, or the one the kernel chose for 0). */
  port = 0;

  constructor(
    private readonly responder: Responder,
    private readonly onError: (msg: string, err?: unknown) => void = () => {},
  ) {}

  /**
   * Binds UDP and TCP on `address:port`. With port 0 the kernel's UDP port
   * may be taken for TCP: then both are let go and another is tried.
   */
  async listen(address: string, port: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.bind(address, port);
      } catch (e) {
        const inUse = (e as NodeJS.ErrnoException).code === "EADDRINUSE";
        if (port !== 0 || !inUse || attempt >= 20) throw e;
      }
    }
  }

  private async bind(address: string, port: number): Promise<void> {
    const udp = createSocket({ type: "udp4" });
    await new Promise<void>((resolve, reject) => {
      udp.once("error", reject);
      udp.bind(port, address, () => {
        udp.off("error", reject);
        resolve();
      });
    });
    udp.on("error", (e) => this.onError("cluster DNS: UDP socket", e));
    udp.on("message", (msg, from) => {
      respond(msg, this.responder, false).then(
        (out) => {
          if (out) udp.send(out, from.port, from.address);
        },
        (e: unknown) => this.onError("cluster DNS: cannot answer a query", e),
      );
    });
    this.port = udp.address().port;
    const tcp = createServer((c) => this.serveConnection(c));
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once("error", reject);
        tcp.listen(this.port, address, () => {
          tcp.off("error", reject);
          resolve();
        });
      });
    } catch (e) {
      udp.close();
      throw e;
    }
    this.udp = udp;
    this.tcp = tcp;
  }

  private serveConnection(c: TcpSocket): void {
    this.connections.add(c);
    c.setTimeout(TCP_IDLE_MS, () => c.destroy());
    c.on("error", () => c.destroy());
    c.on("close", () => this.connections.delete(c));
    let pending = Buffer.alloc(0);
    c.on("data", (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const msg = pending.subarray(2, 2 + pending.readUInt16BE(0));
        pending = pending.subarray(2 + msg.length);
        respond(Buffer.from(msg), this.responder, true).then(
          (out) => {
            if (!out || c.destroyed) return;
            const len = Buffer.alloc(2);
            len.writeUInt16BE(out.length);
            c.write(Buffer.concat([len, out]));
          },
          (e: unknown) => this.onError("cluster DNS: cannot answer a query", e),
        );
      }
    });
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.destroy();
    const udp = this.udp;
    const tcp = this.tcp;
    this.udp = undefined;
    this.tcp = undefined;
    await Promise.all([
      udp ? new Promise<void>((resolve) => udp.close(() => resolve())) : undefined,
      tcp ? new Promise<void>((resolve) => tcp.close(() => resolve())) : undefined,
    ]);
  }
}
