/**
 * The shared suite's watch cases beyond the basics: where a watch starts (a future
 * revision, the newest one, the middle of history), that replayed history is
 * filtered by prefix like live events, that watchers started at different points
 * see suffixes of one log, and that a long history replays whole.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { Backend, KeyValue, StorageEvent } from "../../../src/storage/backend.js";
import { type OpenBackend, Recorder, withBackend } from "./helpers.js";

/** Writes a mixed history under /a/ and /b/: creates, updates and deletes. */
async function mixedHistory(b: Backend): Promise<StorageEvent[]> {
  const log: StorageEvent[] = [];
  const put = (kv: KeyValue, prev?: KeyValue) =>
    log.push(prev ? { type: "put", kv, prev } : { type: "put", kv });
  const a1 = await b.create("/a/1", "a1");
  put(a1);
  put(await b.create("/b/1", "b1"));
  const a2 = await b.create("/a/2", "a2");
  put(a2);
  const a1b = await b.update("/a/1", "a1'", a1.modRevision);
  put(a1b, a1);
  log.push({ type: "delete", kv: await b.delete("/a/2"), prev: a2 });
  const b1 = (await b.get("/b/1"))!;
  log.push({ type: "delete", kv: await b.delete("/b/1"), prev: b1 });
  put(await b.create("/a/2", "a2 again"));
  return log;
}

const under = (prefix: string, log: StorageEvent[]) =>
  log.filter((e) => e.kv.key.startsWith(prefix));

export function watchReplayTests(open: OpenBackend): void {
  it(
    "replays only the watched prefix's history, deletes and previous states included",
    withBackend(open, async (b) => {
      const start = await b.currentRevision();
      const log = await mixedHistory(b);
      const rec = new Recorder();
      await b.watch("/a/", rec.options(start), rec.signal);
      const expected = under("/a/", log);
      assert.deepEqual(await rec.waitForEvents(expected.length), expected);
      const onB = new Recorder();
      await b.watch("/b/", onB.options(start), onB.signal);
      assert.deepEqual(await onB.waitForEvents(2), under("/b/", log));
      rec.controller.abort();
      onB.controller.abort();
    }),
  );

  it(
    "gives watchers started at every point of history the matching suffix of one log",
    withBackend(open, async (b) => {
      const start = await b.currentRevision();
      const log = await mixedHistory(b);
      const recorders = [start, ...log.map((e) => e.kv.modRevision)].map((after) => {
        const rec = new Recorder();
        return { after, rec };
      });
      for (const { after, rec } of recorders) await b.watch("", rec.options(after), rec.signal);
      const tail = await b.create("/a/tail", "live");
      for (const { after, rec } of recorders) {
        const expected = [
          ...log.filter((e) => e.kv.modRevision > after),
          { type: "put", kv: tail },
        ];
        assert.deepEqual(await rec.waitForEvents(expected.length), expected, `after ${after}`);
        rec.controller.abort();
      }
    }),
  );

  it(
    "starts a watch at a future revision with the first event after it",
    withBackend(open, async (b) => {
      const now = await b.currentRevision();
      const rec = new Recorder();
      await b.watch("/a/", rec.options(now + 2), rec.signal);
      await b.create("/a/1", "skipped");
      await b.create("/a/2", "skipped");
      const third = await b.create("/a/3", "seen");
      const fourth = await b.create("/a/4", "seen");
      assert.deepEqual(
        (await rec.waitForEvents(2)).map((e) => e.kv),
        [third, fourth],
      );
      assert.equal(rec.events.length, 2);
      rec.controller.abort();
    }),
  );

  it(
    "replays a long history whole, in order",
    withBackend(open, async (b) => {
      const start = await b.currentRevision();
      // More than one batch of a backend that reads history in batches.
      const written: KeyValue[] = [];
      for (let batch = 0; batch < 11; batch++) {
        const keys = Array.from({ length: 100 }, (_, i) => `/h/${batch}/${i}`);
        written.push(...(await Promise.all(keys.map((key) => b.create(key, key)))));
      }
      const last = await b.update("/h/0/0", "changed", written[0]!.modRevision);
      await b.create("/other/1", "outside the prefix");
      const rec = new Recorder();
      await b.watch("/h/", rec.options(start), rec.signal);
      await rec.waitForEvents(written.length + 1, 15_000);
      const revisions = written.map((kv) => kv.modRevision).sort((x, y) => x - y);
      assert.deepEqual(rec.revisions(), [...revisions, last.modRevision]);
      for (const event of rec.events.slice(0, -1)) assert.equal(event.kv.value, event.kv.key);
      assert.deepEqual(rec.events.at(-1)!.prev, written[0]);
      rec.controller.abort();
    }),
  );

  it(
    "ends only the watch whose callback throws, with onError",
    withBackend(open, async (b) => {
      const failing = new Recorder();
      const options = failing.options(await b.currentRevision());
      const record = options.onEvent;
      options.onEvent = (event) => {
        record(event);
        throw new Error("callback bug");
      };
      await b.watch("/a/", options, failing.signal);
      const healthy = new Recorder();
      await b.watch("/a/", healthy.options(await b.currentRevision()), healthy.signal);
      const first = await b.create("/a/1", "one");
      assert.match((await failing.waitForError()).message, /callback bug/);
      const second = await b.create("/a/2", "two");
      await healthy.waitForEvents(2);
      assert.deepEqual(
        healthy.events.map((e) => e.kv),
        [first, second],
      );
      assert.equal(failing.events.length, 1);
      assert.equal(failing.errors.length, 1);
      assert.deepEqual(await b.get("/a/1"), first);
      healthy.controller.abort();
    }),
  );
}
