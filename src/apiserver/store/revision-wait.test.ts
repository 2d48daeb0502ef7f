/**
 * Reads "not older than" a revision the server has not reached: they wait for
 * it (any key's write moves the one revision), and give up with 504
 * TooLargeResourceVersion, Retry-After 1 s, when it does not come in time.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { TooLargeResourceVersionError } from "../../api/index.js";
import { MemoryBackend } from "../../storage/index.js";
import { waitForRevision } from "./revision-wait.js";

describe("waitForRevision", () => {
  let backend: MemoryBackend;
  beforeEach(() => {
    backend = new MemoryBackend();
  });
  afterEach(() => backend.close());

  it("returns at once for a revision already reached", { timeout: 5000 }, async () => {
    const kv = await backend.create("/a", "x");
    // Far longer than the test's own deadline: it must not wait at all.
    await waitForRevision(backend, kv.modRevision, 60_000);
    await waitForRevision(backend, 1, 60_000);
  });

  it("returns once a write to any key reaches the revision", { timeout: 5000 }, async () => {
    const kv = await backend.create("/a", "x");
    let done = false;
    const waiting = waitForRevision(backend, kv.modRevision + 2, 60_000).then(() => {
      done = true;
    });
    await backend.create("/elsewhere/1", "y");
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false, "one write short");
    await backend.create("/elsewhere/2", "z");
    await waiting;
    assert.equal(done, true);
  });

  it("gives up with 504 TooLargeResourceVersion after the wait", async () => {
    const kv = await backend.create("/a", "x");
    const started = Date.now();
    const error = await waitForRevision(backend, kv.modRevision + 5, 50).catch((e: unknown) => e);
    assert.ok(Date.now() - started >= 45);
    assert.ok(error instanceof TooLargeResourceVersionError, String(error));
    assert.equal(error.code, 504);
    assert.match(
      error.message,
      new RegExp(`Too large resource version: ${kv.modRevision + 5}, current: ${kv.modRevision}`),
    );
    assert.equal(error.toStatus().details?.retryAfterSeconds, 1);
  });

  it("gives up at once when the backend closes under it", { timeout: 5000 }, async () => {
    await backend.create("/a", "x");
    const waiting = waitForRevision(backend, 10, 60_000).catch((e: unknown) => e);
    await backend.close();
    // Its final check of the revision fails on the closed backend.
    assert.equal(((await waiting) as Error).name, "BackendClosedError");
  });
});
