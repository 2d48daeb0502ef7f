/**
 * The shared suite's lifecycle cases: compaction (history at or below the
 * compacted revision is gone, newer state intact) and close (watches end, calls fail).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { BackendClosedError, CompactedError } from "../errors.js";
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

  it("ends watches when closed and refuses calls afterwards", async () => {
    const b = await open();
    let closed = false;
    try {
      await b.create("/a/1", "one");
      const rec = new Recorder();
      await b.watch("/a/", rec.options(0), rec.signal);
      await rec.waitForEvents(1);
      closed = true;
      await b.close();
      assert.ok((await rec.waitForError()) instanceof BackendClosedError);
      assert.equal(rec.errors.length, 1);
      await assert.rejects(b.get("/a/1"), BackendClosedError);
      await assert.rejects(b.create("/a/2", "two"), BackendClosedError);
      await assert.rejects(b.list("/a/"), BackendClosedError);
      await assert.rejects(b.currentRevision(), BackendClosedError);
      const late = new Recorder();
      await assert.rejects(b.watch("/a/", late.options(0), late.signal), BackendClosedError);
    } finally {
      if (!closed) await b.close();
    }
  });
}
