import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { sendJson } from "./respond.js";
import { warningHeaderValues } from "./warning-header.js";

const utf8 = (v: string) => Buffer.from(v, "latin1").toString("utf8");

describe("warningHeaderValues (kube's warning recorder)", () => {
  it("quotes each distinct text once, escaping quotes and backslashes", () => {
    assert.deepEqual(warningHeaderValues(['unknown field "a"', "b\\c", 'unknown field "a"', ""]), [
      '299 - "unknown field \\"a\\""',
      '299 - "b\\\\c"',
    ]);
  });

  it("drops texts with control characters or lone surrogates", () => {
    assert.deepEqual(warningHeaderValues(["a\nb", "c\u0085", "\ud800x", "ok"]), ['299 - "ok"']);
  });

  it("carries non-Latin-1 text as its UTF-8 bytes", () => {
    const [value] = warningHeaderValues(['unknown field "😀İ\u202eevil"']);
    assert.equal(utf8(value!), '299 - "unknown field \\"😀İ\u202eevil\\""');
    assert.ok([...value!].every((ch) => ch.charCodeAt(0) <= 0xff));
  });

  it("cuts every text to 256 runes once 4096 runes would be passed, and stops at 4096", () => {
    const texts = Array.from({ length: 100 }, (_, i) => `${i}:${"x".repeat(300)}`);
    const values = warningHeaderValues(texts);
    // 16 texts of 256 runes make 4096; the rest are dropped.
    assert.equal(values.length, 16);
    for (const v of values) assert.equal(v.length, '299 - ""'.length + 256);
  });

  it("writes texts whole while they fit", () => {
    const texts = Array.from({ length: 4 }, (_, i) => `${i}${"y".repeat(1000)}`);
    assert.deepEqual(
      warningHeaderValues(texts).map((v) => v.length),
      texts.map((t) => t.length + 8),
    );
  });

  it("is sent by sendJson as one header line per warning, never refused by Node", async () => {
    const server = createServer((_req, res) =>
      sendJson(res, 200, {}, { Warning: warningHeaderValues(["é😀", "two"]) }),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`);
      assert.equal(res.status, 200);
      assert.equal(utf8(res.headers.get("warning") ?? ""), '299 - "é😀", 299 - "two"');
    } finally {
      server.close();
    }
  });
});
