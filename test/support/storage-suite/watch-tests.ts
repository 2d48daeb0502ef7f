/**
 * The shared suite's watch cases: live events with their previous state, resuming
 * from an older revision with no gap and no duplicate, prefix filtering, and abort.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { KeyValue } from "../../../src/storage/backend.js";
import { type OpenBackend, Recorder, withBackend } from "./helpers.js";

export function watchTests(open: OpenBackend): void {
  it(
    "streams puts, updates and deletes with their previous state",
    withBackend(open, async (b) => {
      const rec = new Recorder();
      await b.watch("/a/", rec.options(await b.currentRevision()), rec.signal);
      const created = await b.create("/a/x", "one");
      const updated = await b.update("/a/x", "two", created.modRevision);
      const deleted = await b.delete("/a/x");
      const events = await rec.waitForEvents(3);
      assert.deepEqual(events[0], { type: "put", kv: created });
      assert.deepEqual(events[1], { type: "put", kv: updated, prev: created });
      assert.deepEqual(events[2], { type: "delete", kv: deleted, prev: updated });
      assert.equal(events[2]!.kv.value, "two");
      rec.controller.abort();
    }),
  );

  it(
    "replays history after an older revision, then continues live",
    withBackend(open, async (b) => {
      const written: KeyValue[] = [];
      for (let i = 0; i < 5; i++) written.push(await b.create(`/a/${i}`, `v${i}`));
      written.push(await b.update("/a/1", "v1'", written[1]!.modRevision));
      const rec = new Recorder();
      await b.watch("/a/", rec.options(written[2]!.modRevision), rec.signal);
      written.push(await b.delete("/a/3"));
      written.push(await b.create("/a/5", "v5"));
      const events = await rec.waitForEvents(5);
      assert.deepEqual(
        events.map((e) => e.kv),
        written.slice(3),
      );
      assert.deepEqual(events[2]!.prev, written[1]);
      assert.equal(events[3]!.type, "delete");
      assert.equal(events[1]!.prev, undefined);
      rec.controller.abort();
    }),
  );

  it(
    "replays from revision 0 on a fresh backend",
    withBackend(open, async (b) => {
      await b.create("/a/1", "one");
      await b.create("/a/2", "two");
      const rec = new Recorder();
      await b.watch("/a/", rec.options(0), rec.signal);
      assert.deepEqual(
        (await rec.waitForEvents(2)).map((e) => e.kv.key),
        ["/a/1", "/a/2"],
      );
      rec.controller.abort();
    }),
  );

  it(
    "joins history and live events with no gap or duplicate while writes run",
    withBackend(open, async (b) => {
      const writes: Promise<KeyValue>[] = [];
      for (let i = 0; i < 40; i++) writes.push(b.create(`/a/${i}`, `v${i}`));
      const rec = new Recorder();
      const watching = b.watch("/a/", rec.options(0), rec.signal);
      for (let i = 40; i < 80; i++) writes.push(b.create(`/a/${i}`, `v${i}`));
      await watching;
      for (let i = 80; i < 100; i++) writes.push(b.create(`/a/${i}`, `v${i}`));
      const written = await Promise.all(writes);
      await rec.waitForEvents(100);
      const expected = written.map((kv) => kv.modRevision).sort((x, y) => x - y);
      assert.deepEqual(rec.revisions(), expected);
      rec.controller.abort();
    }),
  );

  it(
    "delivers in revision order even when a callback writes",
    withBackend(open, async (b) => {
      const writer = new Recorder();
      const options = writer.options(await b.currentRevision());
      const onEvent = options.onEvent;
      // Awaited before the backend closes: on etcd the watch may deliver the
      // write before the write's own response arrives.
      let second: Promise<unknown> | undefined;
      options.onEvent = (event) => {
        onEvent(event);
        if (event.kv.key === "/a/first") second = b.create("/a/second", "from a callback");
      };
      await b.watch("/a/", options, writer.signal);
      const other = new Recorder();
      await b.watch("/a/", other.options(await b.currentRevision()), other.signal);
      await b.create("/a/first", "x");
      await other.waitForEvents(2);
      await writer.waitForEvents(2);
      await second;
      for (const rec of [writer, other]) {
        assert.deepEqual(
          rec.events.map((e) => e.kv.key),
          ["/a/first", "/a/second"],
        );
        rec.controller.abort();
      }
    }),
  );

  it(
    "sends only the keys under the watched prefix",
    withBackend(open, async (b) => {
      const rec = new Recorder();
      await b.watch("/a/b/", rec.options(await b.currentRevision()), rec.signal);
      await b.create("/a/bc/1", "sibling");
      await b.create("/a/b", "parent");
      const inside = await b.create("/a/b/1", "inside");
      await b.create("/a/c/1", "other");
      const last = await b.create("/a/b/2", "inside too");
      await rec.until(() => rec.revisions().includes(last.modRevision), "the last event");
      assert.deepEqual(rec.revisions(), [inside.modRevision, last.modRevision]);
      rec.controller.abort();
    }),
  );

  it(
    "stops delivering once the signal aborts",
    withBackend(open, async (b) => {
      const stopped = new Recorder();
      const barrier = new Recorder();
      await b.watch("/a/", stopped.options(0), stopped.signal);
      await b.watch("/a/", barrier.options(0), barrier.signal);
      await b.create("/a/1", "one");
      await stopped.waitForEvents(1);
      stopped.controller.abort();
      const late = await b.create("/a/2", "two");
      // Once the barrier watch has the later event, the aborted one would have too.
      await barrier.until(() => barrier.revisions().includes(late.modRevision), "the barrier");
      assert.equal(stopped.events.length, 1);
      assert.deepEqual(stopped.errors, []);

      const never = new Recorder();
      never.controller.abort();
      await b.watch("/a/", never.options(0), never.signal);
      await b.create("/a/3", "three");
      await barrier.waitForEvents(3);
      assert.deepEqual(never.events, []);
      barrier.controller.abort();
    }),
  );
}
