import assert from "node:assert/strict";
import { once } from "node:events";
import net from "node:net";
import { afterEach, describe, it } from "node:test";
import { type SpdyFrame, spdyCodec } from "./spdy-framing.js";
import { SpdySession } from "./spdy-session.js";

/** A SpdySession on one end of a TCP connection, a raw SPDY codec (the server's) on the other. */
async function pair() {
  const server = net.createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  const client = net.connect(port, "127.0.0.1");
  const [peer] = (await once(server, "connection")) as [net.Socket];
  server.close();
  const codec = spdyCodec(true);
  peer.pipe(codec.parser);
  codec.framer.pipe(peer);
  const frames: SpdyFrame[] = [];
  codec.parser.on("data", (f: unknown) => frames.push(f as SpdyFrame));
  const session = new SpdySession(client);
  open.push(() => {
    session.close();
    peer.destroy();
  });
  return { session, codec, frames, peer };
}

/** What each test opened, closed after it whether it passed or not. */
const open: (() => void)[] = [];

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("SpdySession: the client end of kube's SPDY streams", () => {
  afterEach(() => {
    for (const close of open.splice(0)) close();
  });

  it("opens streams with their headers before any of their data, and half-closes with FIN", async () => {
    const { session, frames } = await pair();
    const error = session.open({ streamtype: "error" });
    const stdin = session.open({ streamtype: "stdin" });
    // Written at once, while the headers are still being compressed.
    stdin.write(Buffer.from("hello"));
    stdin.end();
    await until(() => frames.some((f) => f.type === "DATA" && f.fin));
    const seen = frames.filter((f) => f.type === "HEADERS" || f.type === "DATA");
    assert.deepEqual(
      seen.map((f) => [f.type, f.id]),
      [
        ["HEADERS", 1],
        ["HEADERS", 3],
        ["DATA", 3],
        ["DATA", 3],
      ],
    );
    const headers = seen[1] as Extract<SpdyFrame, { type: "HEADERS" }>;
    assert.equal(headers.headers.streamtype, "stdin");
    const [data, fin] = seen.slice(2) as Extract<SpdyFrame, { type: "DATA" }>[];
    assert.equal(data!.data.toString(), "hello");
    assert.equal(fin!.fin, true);
    assert.equal(error.id, 1);
    session.close();
  });

  it("delivers the server's data, ends a stream on FIN, answers pings, ends all on close", async () => {
    const { session, codec, frames, peer } = await pair();
    const out = session.open({ streamtype: "stdout" });
    const other = session.open({ streamtype: "stderr" });
    let got = "";
    let ended = false;
    let otherEnded = false;
    out.on("data", (d) => {
      got += d.toString();
    });
    out.on("end", () => {
      ended = true;
    });
    other.on("end", () => {
      otherEnded = true;
    });
    await until(() => frames.filter((f) => f.type === "HEADERS").length === 2);
    codec.framer.dataFrame({ id: 1, fin: false, priority: 0, data: Buffer.from("out") });
    codec.framer.dataFrame({ id: 1, fin: true, priority: 0, data: Buffer.alloc(0) });
    const opaque = Buffer.alloc(8);
    opaque.writeUInt32BE(2, 4);
    codec.framer.pingFrame({ opaque, ack: false });
    await until(() => ended && frames.some((f) => f.type === "PING"));
    assert.equal(got, "out");
    assert.equal(otherEnded, false);
    peer.destroy();
    await until(() => otherEnded);
  });
});
