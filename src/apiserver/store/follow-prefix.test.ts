/**
 * The informer loop of the apiserver's caches (`followPrefix`): it loads a list,
 * watches from the list's revision with no gap, records its progress for
 * read-your-writes, relists (marked `relisted`) when the watch breaks, keeps
 * retrying a relist that fails, and stops following once its signal aborts.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LaggingBackend } from "../../../test/support/fixtures/store.js";
import type { KeyValue, StorageEvent } from "../../storage/index.js";
import { followPrefix, WatchProgress } from "./cache-sync.js";

/** Records what followPrefix hands its follower: a map of key → value, loads and events. */
class Mirror {
  readonly state = new Map<string, string>();
  readonly loads: { keys: string[]; relisted: boolean }[] = [];
  readonly events: StorageEvent[] = [];
  load(items: KeyValue[], relisted: boolean): void {
    this.state.clear();
    for (const kv of items) this.state.set(kv.key, kv.value);
    this.loads.push({ keys: items.map((kv) => kv.key), relisted });
  }
  onEvent(event: StorageEvent): void {
    this.events.push(event);
    if (event.type === "delete") this.state.delete(event.kv.key);
    else this.state.set(event.kv.key, event.kv.value);
  }
}

describe("followPrefix", () => {
  let backend: LaggingBackend;
  let controller: AbortController;
  let progress: WatchProgress;
  let mirror: Mirror;
  let logged: string[];
  const follow = () =>
    followPrefix(backend, "/c/", mirror, {
      what: "test cache",
      progress,
      signal: controller.signal,
      log: (msg) => logged.push(msg),
    });

  beforeEach(() => {
    backend = new LaggingBackend();
    controller = new AbortController();
    progress = new WatchProgress();
    mirror = new Mirror();
    logged = [];
  });
  afterEach(async () => {
    controller.abort();
    await backend.close();
  });

  it("loads the prefix, then follows it from the list's revision", async () => {
    await backend.create("/c/1", "one");
    await backend.create("/other/1", "outside");
    await follow();
    assert.deepEqual(mirror.loads, [{ keys: ["/c/1"], relisted: false }]);
    assert.equal(progress.revision, await backend.currentRevision());
    const two = await backend.create("/c/2", "two");
    await backend.delete("/c/1");
    await backend.create("/other/2", "outside");
    assert.deepEqual([...mirror.state], [["/c/2", "two"]]);
    assert.deepEqual(
      mirror.events.map((e) => [e.type, e.kv.key]),
      [
        ["put", "/c/2"],
        ["delete", "/c/1"],
      ],
    );
    // Progress follows the prefix's own events, not other keys'.
    assert.equal(progress.revision, two.modRevision + 1);
  });

  it("relists after a broken watch, marked relisted, and follows again", async () => {
    await backend.create("/c/1", "one");
    await follow();
    backend.hold();
    backend.breakWatches();
    await backend.delete("/c/1");
    const fresh = await backend.create("/c/2", "two");
    backend.release();
    await progress.reached(fresh.modRevision, 5000);
    // The relist ran when the watch broke; the watch after it brought the rest.
    assert.deepEqual(
      mirror.loads.map((l) => l.relisted),
      [false, true],
    );
    assert.deepEqual([...mirror.state], [["/c/2", "two"]]);
    assert.deepEqual(logged, ["test cache watch ended; relisting"]);
    const later = await backend.create("/c/3", "three");
    assert.equal(progress.revision, later.modRevision);
    assert.equal(mirror.state.get("/c/3"), "three");
  });

  it("keeps retrying a relist that fails until storage answers", async () => {
    await follow();
    backend.failLists = 2;
    backend.breakWatches();
    const written = await backend.create("/c/1", "while down");
    // Retries are a second apart: two failures, then the relist that sees the write.
    await progress.reached(written.modRevision, 5000);
    assert.equal(progress.revision, written.modRevision);
    assert.equal(mirror.state.get("/c/1"), "while down");
    assert.deepEqual(logged, [
      "test cache watch ended; relisting",
      "test cache relist failed; retrying",
      "test cache relist failed; retrying",
    ]);
  });

  it("does not relist once its signal has aborted", async () => {
    await follow();
    controller.abort();
    await backend.create("/c/1", "unseen");
    backend.breakWatches();
    await backend.create("/c/2", "unseen");
    assert.deepEqual(mirror.loads.length, 1);
    assert.equal(mirror.state.size, 0);
    assert.deepEqual(logged, []);
  });

  it("fails its start when the first list fails", async () => {
    backend.failLists = 1;
    await assert.rejects(follow(), /etcd is down/);
    assert.deepEqual(mirror.loads, []);
  });
});

describe("WatchProgress", () => {
  it("never moves back, and wakes each waiter once its revision is observed", async () => {
    const progress = new WatchProgress();
    const woken: number[] = [];
    const waits = [3, 5, 8].map((r) => progress.reached(r, 60_000).then(() => woken.push(r)));
    progress.observe(5);
    await Promise.all(waits.slice(0, 2));
    assert.deepEqual(woken.sort(), [3, 5]);
    progress.observe(2);
    assert.equal(progress.revision, 5);
    progress.observe(8);
    await waits[2];
    assert.deepEqual(woken, [3, 5, 8]);
  });
});
