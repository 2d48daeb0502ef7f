/**
 * The node API's exec relay end to end on loopback, with a stand-in for
 * containerd's streaming server that speaks SPDY (remotecommand v4) the way
 * Go's spdystream does: a WebSocket client of v5 or v4 gets its stdin to the
 * server's stdin stream, stdout and the error stream's Status back on their
 * channels; v5's close of channel 0 reaches the server as stdin's FIN.
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { WebSocket } from "ws";
import { LogServer } from "../log-server.js";
import { CLOSE, channelMessage, ERROR, STDIN, STDOUT } from "./channels.js";
import { type SpdyFrame, spdyCodec } from "./spdy-framing.js";
import { StreamServer } from "./stream-server.js";

const TOKEN = "t";
const SUCCESS = '{"metadata":{},"status":"Success"}';

/** The runtime stand-in: upper-cases stdin onto stdout; at stdin's end, Success on the error stream. */
function fakeRuntime(seen: string[]): http.Server {
  const server = http.createServer();
  server.on("upgrade", (req, socket) => {
    seen.push(`protocol ${req.headers["x-stream-protocol-version"]}`);
    socket.write(
      "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n" +
        "X-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n",
    );
    const { framer, parser } = spdyCodec(true);
    socket.pipe(parser);
    framer.pipe(socket);
    const ids: Record<string, number> = {};
    const types = new Map<number, string>();
    parser.on("data", (raw: unknown) => {
      const f = raw as SpdyFrame;
      if (f.type === "HEADERS") {
        const t = f.headers.streamtype ?? "";
        ids[t] = f.id;
        types.set(f.id, t);
        seen.push(`open ${t}`);
      } else if (f.type === "DATA" && types.get(f.id) === "stdin") {
        if (f.data.length > 0)
          framer.dataFrame({
            id: ids.stdout!,
            fin: false,
            priority: 0,
            data: Buffer.from(f.data.toString().toUpperCase()),
          });
        if (f.fin) {
          seen.push("stdin FIN");
          framer.dataFrame({ id: ids.error!, fin: true, priority: 0, data: Buffer.from(SUCCESS) });
        }
      }
    });
    socket.on("error", () => {});
  });
  return server;
}

describe("exec relay: WebSocket channels to the runtime's SPDY streams", () => {
  const stop = new AbortController();
  const seen: string[] = [];
  const runtime = fakeRuntime(seen);
  let port = 0;

  before(async () => {
    await new Promise<void>((r) => runtime.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(runtime.address() as AddressInfo).port}/exec/abc`;
    const streams = new StreamServer(
      () => ({ ok: true, containerId: "c1", sandboxId: "s1" }),
      {
        exec: async () => url,
        attach: async () => url,
        portForward: async () => url,
      },
      stop.signal,
    );
    const server = new LogServer(() => ({ ok: false, code: 404, message: "" }), TOKEN, { streams });
    port = await server.start(stop.signal, 0, "127.0.0.1");
  });
  after(() => {
    stop.abort();
    runtime.close();
    runtime.closeAllConnections();
  });

  async function session(protocol: string, send: Buffer[]): Promise<Map<number, string>> {
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/exec/ns/pod/c?command=cat&stdin=true&stdout=true`,
      [protocol],
      { headers: { authorization: `Bearer ${TOKEN}` } },
    );
    const got = new Map<number, string>();
    ws.on("message", (m: Buffer) => {
      got.set(m[0]!, (got.get(m[0]!) ?? "") + m.subarray(1).toString());
    });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => {
        assert.equal(ws.protocol, protocol);
        for (const m of send) ws.send(m);
        resolve();
      });
      ws.once("error", reject);
    });
    await new Promise<void>((resolve) => ws.once("close", () => resolve()));
    return got;
  }

  it("v5: stdin in, stdout back, stdin half-closed by the close message, the Status on channel 3", async () => {
    seen.length = 0;
    const got = await session("v5.channel.k8s.io", [
      channelMessage(STDIN, Buffer.from("hello")),
      Buffer.from([CLOSE, STDIN]),
    ]);
    assert.equal(got.get(STDOUT), "HELLO");
    assert.equal(got.get(ERROR), SUCCESS);
    assert.deepEqual(seen, [
      "protocol v4.channel.k8s.io",
      "open error",
      "open stdin",
      "open stdout",
      "stdin FIN",
    ]);
  });

  it("v4: the same channels; a 255 message is stdin's data, not a close", async () => {
    seen.length = 0;
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/exec/ns/pod/c?command=cat&stdin=true&stdout=true`,
      ["v4.channel.k8s.io"],
      { headers: { authorization: `Bearer ${TOKEN}` } },
    );
    let out = "";
    ws.on("message", (m: Buffer) => {
      if (m[0] === STDOUT) out += m.subarray(1).toString();
    });
    await new Promise<void>((r) => ws.once("open", () => r()));
    assert.equal(ws.protocol, "v4.channel.k8s.io");
    ws.send(channelMessage(STDIN, Buffer.from("abc")));
    ws.send(Buffer.from([CLOSE, STDIN]));
    const deadline = Date.now() + 5000;
    while (out !== "ABC" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(out, "ABC");
    assert.ok(!seen.includes("stdin FIN"));
    ws.close();
    await new Promise<void>((r) => ws.once("close", () => r()));
  });

  it("refuses a client offering no protocol it speaks", async () => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/exec/ns/pod/c?command=cat&stdout=true`,
      ["v3.channel.k8s.io"],
      {
        headers: { authorization: `Bearer ${TOKEN}` },
      },
    );
    const closed = await new Promise<string>((resolve) => {
      ws.once("error", (e) => resolve(e.message));
      ws.once("open", () => resolve(`opened ${ws.protocol}`));
    });
    assert.doesNotMatch(closed, /^opened v3/);
    ws.terminate();
  });
});
