/**
 * The shared suite's payload cases: values near the 1.5 MiB a Kubernetes object
 * may take (etcd's request limit), through every read path and a watch, and keys
 * made of the characters a range or a string escape could trip on.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { Backend } from "../../../src/storage/backend.js";
import { type OpenBackend, Recorder, withBackend } from "./helpers.js";

/** Just under 1.5 MiB with the key and framing, so etcd takes it too. */
const LARGE = 1.4 * 1024 * 1024;

/** Keys with characters that mean something to SQL LIKE, globbing, JSON, paths or UTF-16. */
const UNUSUAL_KEYS = [
  "/u/a b",
  "/u/tab\there",
  "/u/new\nline",
  "/u/quote'\"`",
  "/u/back\\slash",
  "/u/glob*?[x]",
  "/u/like%_",
  "/u/double//slash",
  "/u/trailing/",
  "/u/\u0001control",
  "/u/\u007f",
  "/u/ünïcödé",
  "/u/\uD7FF",
  "/u/\uE000",
  "/u/\uFFFF",
  "/u/\u{1F680}",
  "/u/\u{10FFFF}",
  `/u/${"long-".repeat(500)}`,
];

const bigValue = (fill: string) => JSON.stringify({ data: fill.repeat(LARGE) });

async function roundTrip(b: Backend, key: string, value: string): Promise<void> {
  const kv = await b.create(key, value);
  assert.equal((await b.get(key))?.value, value, `get of ${JSON.stringify(key)}`);
  assert.deepEqual(await b.get(key), kv);
}

export function valueTests(open: OpenBackend): void {
  it(
    "keeps a value near the size limit whole through get, list, update, watch and delete",
    withBackend(open, async (b) => {
      const rec = new Recorder();
      await b.watch("/big/", rec.options(await b.currentRevision()), rec.signal);
      const first = bigValue("a");
      const second = bigValue("b");
      const created = await b.create("/big/x", first);
      assert.equal((await b.get("/big/x"))?.value, first);
      const updated = await b.update("/big/x", second, created.modRevision);
      const listed = await b.list("/big/");
      assert.equal(listed.items.length, 1);
      assert.equal(listed.items[0]!.value, second);
      assert.equal(
        (await b.list("/big/", { revision: created.modRevision })).items[0]?.value,
        first,
      );
      const deleted = await b.delete("/big/x");
      assert.equal(deleted.value, second);
      const events = await rec.waitForEvents(3, 15_000);
      assert.equal(events[0]!.kv.value, first);
      // The update's event carries both values, near twice the limit in one message.
      assert.equal(events[1]!.kv.value, second);
      assert.equal(events[1]!.prev?.value, first);
      assert.equal(events[2]!.kv.value, second);
      assert.equal(events[2]!.kv.modRevision, deleted.modRevision);
      assert.equal(updated.createRevision, created.modRevision);
      rec.controller.abort();
    }),
  );

  it(
    "lists a few large values in pages",
    withBackend(open, async (b) => {
      const value = JSON.stringify({ data: "z".repeat(512 * 1024) });
      for (let i = 0; i < 6; i++) await b.create(`/big/${i}`, value);
      const seen: string[] = [];
      let after: string | undefined;
      let revision: number | undefined;
      for (;;) {
        const page = await b.list("/big/", { limit: 2, ...(after ? { after } : {}), revision });
        revision = page.revision;
        for (const kv of page.items) {
          assert.equal(kv.value.length, value.length);
          seen.push(kv.key);
        }
        if (!page.more) break;
        after = page.items.at(-1)!.key;
      }
      assert.deepEqual(seen, ["/big/0", "/big/1", "/big/2", "/big/3", "/big/4", "/big/5"]);
    }),
  );

  it(
    "stores, lists, watches and deletes keys with unusual characters",
    withBackend(open, async (b) => {
      const rec = new Recorder();
      await b.watch("/u/", rec.options(await b.currentRevision()), rec.signal);
      for (const key of UNUSUAL_KEYS) await roundTrip(b, key, `value of ${key}`);
      // A key outside /u/ that starts with it byte for byte but for its last character.
      await b.create("/u", "parent");
      await b.create("/v/", "sibling");
      const listed = (await b.list("/u/")).items.map((kv) => kv.key);
      assert.deepEqual(new Set(listed), new Set(UNUSUAL_KEYS));
      assert.equal(await b.count("/u/"), UNUSUAL_KEYS.length);
      await rec.waitForEvents(UNUSUAL_KEYS.length);
      assert.deepEqual(
        rec.events.map((e) => e.kv.key),
        UNUSUAL_KEYS,
      );
      for (const key of UNUSUAL_KEYS) await b.delete(key);
      assert.deepEqual((await b.list("/u/")).items, []);
      rec.controller.abort();
    }),
  );

  it(
    "lists exactly the keys under a prefix that ends in an unusual character",
    withBackend(open, async (b) => {
      // Each prefix's last character is where the range's end is computed.
      const cases: [prefix: string, inside: string[], outside: string[]][] = [
        ["/p/\uD7FF", ["/p/\uD7FF", "/p/\uD7FFx"], ["/p/\uE000", "/p/\uD7FE"]],
        ["/p/\uFFFF", ["/p/\uFFFF/1"], ["/p/\u{10000}", "/p/\uFFFE"]],
        ["/p/\u{10FFFF}", ["/p/\u{10FFFF}", "/p/\u{10FFFF}\u{10FFFF}"], ["/p/\u{10FFFE}"]],
        ["/p/%", ["/p/%a"], ["/p/&", "/p/a"]],
        ["/p/\u0000", ["/p/\u0000x"], ["/p/\u0001"]],
      ];
      for (const [, inside, outside] of cases) {
        for (const key of [...inside, ...outside]) {
          if (!(await b.get(key))) await b.create(key, "v");
        }
      }
      for (const [prefix, inside] of cases) {
        const keys = (await b.list(prefix)).items.map((kv) => kv.key);
        assert.deepEqual(keys, inside, `list ${JSON.stringify(prefix)}`);
        assert.equal(await b.count(prefix), inside.length, `count ${JSON.stringify(prefix)}`);
      }
    }),
  );
}
