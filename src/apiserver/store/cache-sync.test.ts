/**
 * Read-your-writes for the caches: a write under a followed prefix returns only
 * once the cache has observed its revision (as on etcd, where the watch lags
 * the write), other writes return at once, and a cache that never catches up
 * delays a write by the bound, not for ever.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryBackend } from "../../storage/index.js";
import { relistUntilDone, syncedWrites, WatchProgress } from "./cache-sync.js";

describe("syncedWrites", () => {
  it("returns a followed write only once its cache has observed it", async () => {
    const progress = new WatchProgress();
    const backend = syncedWrites(new MemoryBackend(), [{ prefix: "/crds/", progress }]);
    let returned = false;
    const write = backend.create("/crds/a", "x").then((kv) => {
      returned = true;
      return kv;
    });
    // Other prefixes are not held back.
    await backend.create("/pods/a", "y");
    assert.equal(returned, false);
    const revision = (await backend.get("/crds/a"))!.modRevision;
    progress.observe(revision - 1);
    await backend.get("/pods/a");
    assert.equal(returned, false);
    progress.observe(revision);
    assert.equal((await write).modRevision, revision);
  });

  it("resolves a wait for an already observed revision at once", async () => {
    const progress = new WatchProgress();
    progress.observe(10);
    // "At once": settled before any timer could fire, not after the 60 s bound.
    const settled = (p: Promise<void>) =>
      Promise.race([p.then(() => true), new Promise<boolean>((r) => setImmediate(r, false))]);
    assert.equal(await settled(progress.reached(7, 60_000)), true);
    assert.equal(await settled(progress.reached(10, 60_000)), true);
    assert.equal(await settled(progress.reached(11, 60_000)), false, "a later one waits");
    progress.observe(11);
  });

  it("gives up waiting after the bound", async () => {
    const progress = new WatchProgress();
    const started = Date.now();
    await progress.reached(5, 50);
    assert.ok(Date.now() - started >= 45);
  });
});

describe("relistUntilDone", () => {
  it("retries a failing relist until it succeeds, and stops on abort", async () => {
    let calls = 0;
    const logged: string[] = [];
    const done = new Promise<void>((resolve) => {
      relistUntilDone(
        "test",
        async () => {
          calls++;
          if (calls < 2) throw new Error("etcd is down");
          resolve();
        },
        new AbortController().signal,
        (msg) => logged.push(msg),
      );
    });
    await done;
    assert.equal(calls, 2);
    assert.deepEqual(logged, ["test relist failed; retrying"]);
  });

  it("does not relist once aborted", () => {
    // Counted, not asserted in the callback: relistUntilDone would swallow the failure.
    let calls = 0;
    const logged: string[] = [];
    const aborted = new AbortController();
    aborted.abort();
    relistUntilDone(
      "never",
      async () => {
        calls++;
      },
      aborted.signal,
      (msg) => logged.push(msg),
    );
    assert.equal(calls, 0);
    assert.deepEqual(logged, []);
  });
});
