/** Key order and prefix ranges: code point order and the edges of prefixEnd. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareKeys, keyAfter, listStart, prefixEnd } from "./keys.js";

describe("keys", () => {
  it("compares by code point, as UTF-8 bytes do", () => {
    const keys = ["/\u{1F680}", "/\uFF5E", "/b", "/a", "/", "/é", "/a/b"];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    assert.deepEqual([...keys].sort(compareKeys), byBytes);
    assert.equal(compareKeys("/a", "/a"), 0);
  });

  it("ends a prefix range just past every key with that prefix", () => {
    assert.equal(prefixEnd("/a/"), "/a0");
    assert.equal(prefixEnd("/a"), "/b");
    assert.equal(prefixEnd(""), undefined);
    assert.equal(prefixEnd("\u{10FFFF}"), undefined);
    assert.equal(prefixEnd("/a\u{10FFFF}"), "/b");
    assert.equal(prefixEnd("/\uD7FF"), "/\uE000");
    assert.equal(prefixEnd("/\u{1F680}"), "/\u{1F681}");
    for (const key of ["/a/", "/a/x", "/a/\u{10FFFF}\u{10FFFF}"]) {
      assert.ok(compareKeys(key, prefixEnd("/a/")!) < 0);
    }
  });

  it("starts a page just past `after`, never before the prefix", () => {
    assert.equal(listStart("/a/", undefined), "/a/");
    assert.equal(listStart("/a/", "/0"), "/a/");
    assert.equal(listStart("/a/", "/a/x"), keyAfter("/a/x"));
    assert.ok(compareKeys("/a/x", keyAfter("/a/x")) < 0);
    assert.ok(compareKeys(keyAfter("/a/x"), "/a/x\u0001") < 0);
  });
});
