/**
 * A typed wrapper over the SPDY/3 frame codec of `spdy-transport` (its
 * `protocol/spdy` framer and parser, with their zlib header compression and
 * the SPDY/3 dictionary): only what spdy-session.ts uses. The library's
 * Connection is not used: it wants a `:status` in every SYN_REPLY and SPDY/3.1
 * flow control, neither of which the Go `spdystream` that containerd's (and the
 * kubelet's) streaming server runs speaks.
 */
import { createRequire } from "node:module";
import type { Readable, Writable } from "node:stream";

/** A frame as the parser emits it (the kinds spdy-session.ts handles). */
export type SpdyFrame =
  | { type: "DATA"; id: number; fin: boolean; data: Buffer }
  | { type: "HEADERS"; id: number; fin: boolean; headers: Record<string, string> }
  | { type: "RST"; id: number; code: string }
  | { type: "PING"; opaque: Buffer; ack: boolean }
  | { type: "GOAWAY"; lastId: number }
  | { type: "SETTINGS" | "WINDOW_UPDATE" | "NOOP" };

interface SpdyFramer extends Readable {
  setVersion(v: number): void;
  setCompression(pair: unknown): void;
  requestFrame(
    f: {
      id: number;
      fin: boolean;
      method: string;
      path: string;
      priority: { weight: number };
      headers: Record<string, string>;
    },
    cb?: (err?: Error) => void,
  ): void;
  dataFrame(f: { id: number; fin: boolean; priority: number; data: Buffer }, cb?: () => void): void;
  rstFrame(f: { id: number; code: string }): void;
  pingFrame(f: { opaque: Buffer; ack: boolean }): void;
}

/** A Transform: bytes in, frames (SpdyFrame objects) out as `data` events. */
interface SpdyParser extends Writable {
  setVersion(v: number): void;
  setCompression(pair: unknown): void;
}

interface SpdyProtocol {
  framer: { create(o: { window: unknown }): SpdyFramer };
  parser: { create(o: { isServer: boolean }): SpdyParser };
  compressionPool: { create(compress: boolean): { get(version: number): unknown } };
}

const require = createRequire(import.meta.url);
const spdy = (require("spdy-transport") as { protocol: { spdy: SpdyProtocol } }).protocol.spdy;

/** The framer counts bytes against a send window at 3.1 only; at 3 it just asks. */
const NO_WINDOW = { send: { update() {} }, recv: { update() {} } };

/** A framer (frames to write) and a parser (frames read) sharing one header compression pair. */
export function spdyCodec(isServer: boolean): { framer: SpdyFramer; parser: SpdyParser } {
  const pair = spdy.compressionPool.create(true).get(3);
  const framer = spdy.framer.create({ window: NO_WINDOW });
  const parser = spdy.parser.create({ isServer });
  framer.setVersion(3);
  framer.setCompression(pair);
  parser.setVersion(3);
  parser.setCompression(pair);
  return { framer, parser };
}
