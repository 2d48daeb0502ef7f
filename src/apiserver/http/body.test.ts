/** Request bodies over a real HTTP server: declared and chunked lengths, the limit, aborts, decoding. */
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { ApiError } from "../../api/index.js";
import { decodeBody, mediaType, parseJson, parseYaml, readBodyBytes } from "./body.js";

/** What reading the body gave the server, as the test's request sees it. */
type Outcome = { bytes: Buffer } | { error: unknown };

/** A server that reads each body with `read` and hands the outcome to the waiting test. */
class BodyServer {
  readonly server: Server;
  private next: ((o: Outcome) => void) | undefined;

  constructor(read: (req: IncomingMessage) => Promise<Buffer>) {
    this.server = createServer((req, res) => {
      read(req).then(
        (bytes) => {
          this.next?.({ bytes });
          res.end("read");
        },
        (error: unknown) => {
          this.next?.({ error });
          res.statusCode = error instanceof ApiError ? error.code : 500;
          res.end("refused");
        },
      );
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The outcome of the next request the server reads. */
  outcome(): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      this.next = resolve;
    });
  }

  /** Sends one request, writing `pieces` apart; resolves with what the server read. */
  async send(pieces: Buffer[], headers: Record<string, string | number>): Promise<Outcome> {
    const outcome = this.outcome();
    const req = request({ port: this.port, method: "POST", path: "/", headers, agent: false });
    req.on("error", () => {});
    req.on("response", (res) => res.resume());
    for (const p of pieces) {
      req.write(p);
      await new Promise((resolve) => setImmediate(resolve));
    }
    req.end();
    return outcome;
  }
}

function pieces(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

describe("readBodyBytes", () => {
  const server = new BodyServer((req) => readBodyBytes(req, 64));

  before(async () => {
    server.server.listen(0, "127.0.0.1");
    await once(server.server, "listening");
  });
  after(async () => {
    server.server.close();
    server.server.closeAllConnections();
    await once(server.server, "close");
  });

  it("reads a declared length, in one piece or many, and an empty body", async () => {
    const text = '{"kind":"ConfigMap","data":{"k":"vé"}}';
    for (const size of [text.length, 5, 1]) {
      const sent = pieces(text, size);
      const got = await server.send(sent, { "Content-Length": Buffer.byteLength(text) });
      assert.ok("bytes" in got);
      assert.equal(got.bytes.toString("utf8"), text);
    }
    const empty = await server.send([], { "Content-Length": 0 });
    assert.ok("bytes" in empty);
    assert.equal(empty.bytes.length, 0);
  });

  it("reads a chunked body up to the limit, and refuses one past it with 413", async () => {
    const text = "x".repeat(64);
    const got = await server.send(pieces(text, 10), { "Transfer-Encoding": "chunked" });
    assert.ok("bytes" in got);
    assert.equal(got.bytes.toString(), text);
    const big = await server.send(pieces(`${text}y`, 10), { "Transfer-Encoding": "chunked" });
    assert.ok("error" in big);
    assert.equal((big.error as ApiError).code, 413);
  });

  it("refuses a declared length past the limit before reading it", async () => {
    const got = await server.send(pieces("z".repeat(65), 65), { "Content-Length": 65 });
    assert.ok("error" in got);
    assert.equal((got.error as ApiError).code, 413);
    assert.equal((got.error as ApiError).message, "Request entity too large: limit is 64");
  });

  it("fails when the client goes away before the declared end", async () => {
    const outcome = server.outcome();
    const arrived = once(server.server, "request");
    const req = request({
      port: server.port,
      method: "POST",
      path: "/",
      headers: { "Content-Length": 40 },
      agent: false,
    });
    req.on("error", () => {});
    req.write("only part of it");
    await arrived;
    req.destroy();
    const got = await outcome;
    assert.ok("error" in got);
    assert.equal((got.error as Error).message, "aborted");
  });
});

describe("decodeBody", () => {
  it("decodes JSON by media type, parameters and case aside", () => {
    const bytes = Buffer.from('{"a":1}\n');
    for (const type of [undefined, "application/json", "Application/JSON; charset=utf-8", "*/*"])
      assert.deepEqual(decodeBody(bytes, type), { a: 1 }, String(type));
    assert.deepEqual(decodeBody(Buffer.from("a: 1\n"), "application/yaml"), { a: 1 });
    assert.throws(() => decodeBody(bytes, "text/plain"), { code: 415 });
    assert.equal(mediaType(" application/merge-patch+json ;x=y"), "application/merge-patch+json");
    assert.equal(mediaType(undefined), "");
  });

  it("calls a blank body empty and a malformed one undecodable", () => {
    for (const text of ["", " ", "\n\t\r", "\u00a0\ufeff\u2028"]) {
      assert.throws(() => parseJson(text), { message: "the body of the request was empty" });
      assert.throws(() => parseYaml(text), { message: "the body of the request was empty" });
    }
    assert.throws(
      () => parseJson(" {"),
      (e: unknown) => {
        assert.ok(e instanceof ApiError);
        assert.equal(e.code, 400);
        assert.match(e.message, /^the body of the request could not be decoded: /);
        return true;
      },
    );
    assert.equal(parseJson(" null "), null);
  });
});
