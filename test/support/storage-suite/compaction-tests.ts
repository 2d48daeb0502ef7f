/**
 * The shared suite's compaction cases: history at or below the compacted revision
 * is gone, newer state intact, and live watches and paging go on across it.
 * Compaction is store-wide, so backends sharing a store run these on one of their own.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { CompactedError } from "../../../src/storage/errors.js";
import { type OpenBackend, Recorder, withBackend } from "./helpers.js";

export function compactionTests(open: OpenBackend): void {
  it(
    "forgets history at or below the compacted revision and keeps newer state",
    withBackend(open, async (b) => {
      const kept = await b.create("/a/kept", "old");
      await b.create("/a/gone", "x");
      const changed = await b.create("/a/changed", "one");
      await b.delete("/a/gone");
      const changed2 = await b.update("/a/changed", "two", changed.modRevision);
      const at = changed2.modRevision;
      const later = await b.update("/a/changed", "three", changed2.modRevision);
      const fresh = await b.create("/a/fresh", "new");

      await b.compact(at);
      assert.equal(await b.compactedRevision(), at);
      await assert.rejects(b.list("/a/", { revision: at - 1 }), CompactedError);
      const rec = new Recorder();
      const error = await b.watch("/a/", rec.options(at - 1), rec.signal).catch((e: unknown) => e);
      assert.ok(error instanceof CompactedError);
      assert.equal(error.requested, at - 1);
      assert.equal(error.compacted, at);

      // The state at the compacted revision, and everything after it, is intact.
      const atCompacted = await b.list("/a/", { revision: at });
      assert.deepEqual(atCompacted.items, [changed2, kept]);
      assert.deepEqual((await b.list("/a/")).items, [later, fresh, kept]);
      assert.deepEqual(await b.get("/a/kept"), kept);
      assert.equal(await b.get("/a/gone"), undefined);

      await b.watch("/a/", rec.options(at), rec.signal);
      const events = await rec.waitForEvents(2);
      assert.deepEqual(
        events.map((e) => e.kv),
        [later, fresh],
      );
      assert.deepEqual(events[0]!.prev, changed2);
      rec.controller.abort();
    }),
  );

  it(
    "keeps writing and re-creating keys after compaction",
    withBackend(open, async (b) => {
      await b.create("/a/1", "one");
      const deleted = await b.delete("/a/1");
      await b.compact(deleted.modRevision);
      assert.equal(await b.currentRevision(), deleted.modRevision);
      const again = await b.create("/a/1", "again");
      assert.ok(again.modRevision > deleted.modRevision);
      assert.equal(again.createRevision, again.modRevision);
      const updated = await b.update("/a/1", "updated", again.modRevision);
      assert.deepEqual((await b.list("/a/")).items, [updated]);
      // Compacting again to the same or an older revision changes nothing.
      await b.compact(deleted.modRevision - 1);
      assert.equal(await b.compactedRevision(), deleted.modRevision);
      await b.compact(updated.modRevision);
      assert.deepEqual((await b.list("/a/", { revision: updated.modRevision })).items, [updated]);
    }),
  );

  it(
    "keeps a live watch going across a compaction",
    withBackend(open, async (b) => {
      const rec = new Recorder();
      await b.watch("/a/", rec.options(await b.currentRevision()), rec.signal);
      const one = await b.create("/a/1", "one");
      const two = await b.update("/a/1", "two", one.modRevision);
      await rec.waitForEvents(2);
      await b.compact(two.modRevision);
      const three = await b.update("/a/1", "three", two.modRevision);
      const other = await b.create("/a/2", "other");
      await rec.waitForEvents(4);
      assert.deepEqual(
        rec.events.map((e) => e.kv),
        [one, two, three, other],
      );
      assert.deepEqual(rec.events[2]!.prev, two);
      assert.deepEqual(rec.errors, []);
      rec.controller.abort();
    }),
  );

  it(
    "compacts no further than the current revision",
    withBackend(open, async (b) => {
      const kv = await b.create("/a/1", "one");
      await b.compact(kv.modRevision + 1000);
      assert.equal(await b.compactedRevision(), kv.modRevision);
      assert.deepEqual((await b.list("/a/", { revision: kv.modRevision })).items, [kv]);
      const next = await b.create("/a/2", "two");
      assert.equal(next.modRevision, kv.modRevision + 1);
      assert.equal(await b.count("/a/"), 2);
    }),
  );

  it(
    "pages a list at the compacted revision, and refuses the page before it",
    withBackend(open, async (b) => {
      for (let i = 0; i < 5; i++) await b.create(`/p/${i}`, `v${i}`);
      const first = await b.list("/p/", { limit: 2 });
      await b.delete("/p/3");
      await b.create("/p/9", "late");
      await b.compact(first.revision);
      const second = await b.list("/p/", { limit: 2, after: "/p/1", revision: first.revision });
      assert.deepEqual(
        second.items.map((kv) => kv.key),
        ["/p/2", "/p/3"],
      );
      await b.compact(await b.currentRevision());
      const error = await b
        .list("/p/", { limit: 2, after: "/p/3", revision: first.revision })
        .catch((e: unknown) => e);
      assert.ok(error instanceof CompactedError);
      assert.equal(error.requested, first.revision);
      assert.ok(error.compacted > first.revision);
    }),
  );
}
