/**
 * The shared suite's range cases: list by prefix in key order, paging with
 * limit/after at a fixed revision, reads at an older revision, and count.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { Backend, ListResult } from "../../../src/storage/backend.js";
import { type OpenBackend, withBackend } from "./helpers.js";

const keysOf = (result: ListResult) => result.items.map((kv) => kv.key);

async function createAll(b: Backend, keys: string[]): Promise<void> {
  for (const key of keys) await b.create(key, `v${key}`);
}

export function listTests(open: OpenBackend): void {
  it(
    "lists the keys under a prefix in key order, not its siblings",
    withBackend(open, async (b) => {
      await createAll(b, ["/a/b/2", "/a/bc/1", "/a/b", "/a/b/1", "/a/b/10", "/a/a/1", "/b/1"]);
      const result = await b.list("/a/b/");
      assert.deepEqual(keysOf(result), ["/a/b/1", "/a/b/10", "/a/b/2"]);
      assert.equal(result.items[0]!.value, "v/a/b/1");
      assert.equal(result.more, false);
      assert.equal(result.revision, await b.currentRevision());
      assert.deepEqual(keysOf(await b.list("/a/b")), [
        "/a/b",
        "/a/b/1",
        "/a/b/10",
        "/a/b/2",
        "/a/bc/1",
      ]);
      assert.equal((await b.list("")).items.length, 7);
      assert.deepEqual(keysOf(await b.list("/c/")), []);
    }),
  );

  it(
    "treats % and _ in a prefix as ordinary characters",
    withBackend(open, async (b) => {
      await createAll(b, ["/a_/1", "/ab/1", "/a%/1", "/az/1"]);
      assert.deepEqual(keysOf(await b.list("/a_")), ["/a_/1"]);
      assert.deepEqual(keysOf(await b.list("/a%")), ["/a%/1"]);
      assert.equal(await b.count("/a_"), 1);
    }),
  );

  it(
    "orders keys by code point",
    withBackend(open, async (b) => {
      // U+FF5E is one UTF-16 unit, U+1F680 two (surrogates): code point order puts
      // the latter last, as UTF-8 bytes do.
      await createAll(b, ["/k/\u{1F680}", "/k/\uFF5E", "/k/z", "/k/Z", "/k/é"]);
      assert.deepEqual(keysOf(await b.list("/k/")), [
        "/k/Z",
        "/k/z",
        "/k/é",
        "/k/\uFF5E",
        "/k/\u{1F680}",
      ]);
    }),
  );

  it(
    "skips deleted keys and shows the newest values",
    withBackend(open, async (b) => {
      await createAll(b, ["/a/1", "/a/2", "/a/3"]);
      await b.delete("/a/2");
      const three = await b.get("/a/3");
      await b.update("/a/3", "new", three!.modRevision);
      const result = await b.list("/a/");
      assert.deepEqual(keysOf(result), ["/a/1", "/a/3"]);
      assert.equal(result.items[1]!.value, "new");
      assert.deepEqual(result.items[1], await b.get("/a/3"));
    }),
  );

  it(
    "pages with limit and after at the first page's revision",
    withBackend(open, async (b) => {
      await createAll(b, ["/p/1", "/p/2", "/p/3", "/p/4", "/p/5"]);
      await b.create("/q/1", "outside");
      const first = await b.list("/p/", { limit: 2 });
      assert.deepEqual(keysOf(first), ["/p/1", "/p/2"]);
      assert.equal(first.more, true);
      if (first.remaining !== undefined) assert.equal(first.remaining, 3);
      const at = first.revision;

      // Writes after the first page must not show on later pages read at its revision.
      const four = await b.get("/p/4");
      await b.update("/p/4", "changed", four!.modRevision);
      await b.delete("/p/3");
      await b.create("/p/45", "new");
      await b.create("/p/0", "new");

      const second = await b.list("/p/", { limit: 2, after: "/p/2", revision: at });
      assert.deepEqual(keysOf(second), ["/p/3", "/p/4"]);
      assert.equal(second.items[1]!.value, "v/p/4");
      assert.equal(second.revision, at);
      assert.equal(second.more, true);
      if (second.remaining !== undefined) assert.equal(second.remaining, 1);
      const third = await b.list("/p/", { limit: 2, after: "/p/4", revision: at });
      assert.deepEqual(keysOf(third), ["/p/5"]);
      assert.equal(third.more, false);

      const now = await b.list("/p/", { limit: 10 });
      assert.deepEqual(keysOf(now), ["/p/0", "/p/1", "/p/2", "/p/4", "/p/45", "/p/5"]);
      assert.equal(now.more, false);
    }),
  );

  it(
    "pages exactly to the end, and treats limit 0 as no limit",
    withBackend(open, async (b) => {
      await createAll(b, ["/p/1", "/p/2", "/p/3", "/p/4"]);
      const first = await b.list("/p/", { limit: 2 });
      const second = await b.list("/p/", { limit: 2, after: "/p/2", revision: first.revision });
      assert.deepEqual(keysOf(second), ["/p/3", "/p/4"]);
      assert.equal(second.more, false);
      assert.equal((await b.list("/p/", { limit: 0 })).items.length, 4);
      // An `after` before the prefix starts at the prefix; one past it gives nothing.
      assert.deepEqual(keysOf(await b.list("/p/", { after: "/a" })).length, 4);
      assert.deepEqual(keysOf(await b.list("/p/", { after: "/q" })), []);
    }),
  );

  it(
    "reads an older revision's state",
    withBackend(open, async (b) => {
      const one = await b.create("/a/1", "one");
      const two = await b.update("/a/1", "two", one.modRevision);
      const other = await b.create("/a/2", "other");
      const gone = await b.delete("/a/1");

      const atOne = await b.list("/a/", { revision: one.modRevision });
      assert.equal(atOne.revision, one.modRevision);
      assert.deepEqual(atOne.items, [one]);
      assert.deepEqual((await b.list("/a/", { revision: other.modRevision })).items, [two, other]);
      assert.deepEqual((await b.list("/a/", { revision: gone.modRevision })).items, [other]);
      assert.deepEqual((await b.list("/a/", { revision: 0 })).items, [other]);
    }),
  );

  it(
    "refuses to read a future revision",
    withBackend(open, async (b) => {
      const kv = await b.create("/a/1", "one");
      await assert.rejects(b.list("/a/", { revision: kv.modRevision + 10 }));
    }),
  );

  it(
    "counts the live keys under a prefix",
    withBackend(open, async (b) => {
      assert.equal(await b.count("/a/"), 0);
      await createAll(b, ["/a/1", "/a/2", "/a/3", "/ab/1", "/b/1"]);
      assert.equal(await b.count("/a/"), 3);
      assert.equal(await b.count(""), 5);
      await b.delete("/a/2");
      const three = await b.get("/a/3");
      await b.update("/a/3", "x", three!.modRevision);
      assert.equal(await b.count("/a/"), 2);
    }),
  );
}
