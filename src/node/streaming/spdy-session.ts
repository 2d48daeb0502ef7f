/**
 * The client end of a SPDY/3 session on an upgraded connection, as the Go
 * `spdystream` that containerd's streaming server runs expects it: the client
 * opens every stream (odd ids) with a SYN_STREAM whose headers name it
 * (`streamtype: stdout`), writes DATA, half-closes with an empty DATA FIN;
 * the server's SYN_REPLY is not waited for. No flow control (spdystream has
 * none): a write is framed at once, at most 32 KiB a frame. Pings are
 * answered. When the connection ends, every stream ends.
 */
import { EventEmitter } from "node:events";
import type { Duplex } from "node:stream";
import { type SpdyFrame, spdyCodec } from "./spdy-framing.js";

const MAX_DATA = 32 * 1024;

export class SpdyStream extends EventEmitter<{ data: [Buffer]; end: [] }> {
  private ended = false;
  private finished = false;

  constructor(
    private readonly session: SpdySession,
    readonly id: number,
  ) {
    super();
  }

  write(data: Buffer): void {
    if (this.finished) return;
    for (let at = 0; at < data.length; at += MAX_DATA)
      this.session.data(this.id, data.subarray(at, at + MAX_DATA), false);
  }

  /** Half-closes: the server reads EOF on this stream. */
  end(): void {
    if (this.finished) return;
    this.finished = true;
    this.session.data(this.id, Buffer.alloc(0), true);
  }

  /** @internal the server's half of the stream ended (FIN, RST or the connection). */
  remoteEnded(): void {
    if (this.ended) return;
    this.ended = true;
    this.emit("end");
  }
}

export class SpdySession extends EventEmitter<{ close: [] }> {
  private readonly codec = spdyCodec(false);
  private readonly streams = new Map<number, SpdyStream>();
  private nextId = 1;
  private closed = false;
  /**
   * A SYN_STREAM's headers are compressed asynchronously while DATA is framed
   * at once: frames wait here while any SYN_STREAM is not yet queued, so that
   * no DATA reaches the server before its stream exists.
   */
  private synPending = 0;
  private readonly waiting: { id: number; data: Buffer; fin: boolean }[] = [];

  constructor(private readonly socket: Duplex) {
    super();
    this.codec.framer.pipe(socket);
    socket.pipe(this.codec.parser);
    this.codec.parser.on("data", (frame: unknown) => this.onFrame(frame as SpdyFrame));
    this.codec.parser.on("error", () => this.close());
    socket.on("error", () => this.close());
    socket.on("close", () => this.close());
    socket.on("end", () => this.close());
  }

  /** Opens a stream whose SYN_STREAM carries `headers` (lower-cased names). */
  open(headers: Record<string, string>): SpdyStream {
    const id = this.nextId;
    this.nextId += 2;
    const stream = new SpdyStream(this, id);
    this.streams.set(id, stream);
    this.synPending++;
    this.codec.framer.requestFrame(
      { id, fin: false, method: "POST", path: "/", priority: { weight: 16 }, headers },
      () => {
        this.synPending--;
        if (this.synPending > 0) return;
        for (const w of this.waiting.splice(0)) this.data(w.id, w.data, w.fin);
      },
    );
    return stream;
  }

  /** @internal */
  data(id: number, data: Buffer, fin: boolean): void {
    if (this.closed) return;
    if (this.synPending > 0) this.waiting.push({ id, data, fin });
    else this.codec.framer.dataFrame({ id, fin, priority: 0, data });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.streams.values()) s.remoteEnded();
    this.streams.clear();
    this.socket.destroy();
    this.emit("close");
  }

  private onFrame(frame: SpdyFrame): void {
    switch (frame.type) {
      case "DATA": {
        const s = this.streams.get(frame.id);
        if (!s) return;
        if (frame.data.length > 0) s.emit("data", frame.data);
        if (frame.fin) s.remoteEnded();
        return;
      }
      case "HEADERS":
        if (frame.fin) this.streams.get(frame.id)?.remoteEnded();
        return;
      case "RST":
        this.streams.get(frame.id)?.remoteEnded();
        return;
      case "PING":
        if (!frame.ack) this.codec.framer.pingFrame({ opaque: frame.opaque, ack: true });
        return;
      case "GOAWAY":
        this.close();
        return;
      default:
        return;
    }
  }
}
