/**
 * The shared suite's close cases: close ends every pending watch once with
 * BackendClosedError, refuses every later call, and may be called again.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { Backend } from "../../../src/storage/backend.js";
import { BackendClosedError } from "../../../src/storage/errors.js";
import { type OpenBackend, Recorder } from "./helpers.js";

/** Every Backend call, as it would be made after close. */
const calls: [string, (b: Backend) => Promise<unknown>][] = [
  ["get", (b) => b.get("/a/1")],
  ["list", (b) => b.list("/a/")],
  ["count", (b) => b.count("/a/")],
  ["create", (b) => b.create("/a/2", "two")],
  ["update", (b) => b.update("/a/1", "x", 1)],
  ["delete", (b) => b.delete("/a/1")],
  ["currentRevision", (b) => b.currentRevision()],
  ["compactedRevision", (b) => b.compactedRevision()],
  ["compact", (b) => b.compact(1)],
  ["watch", (b) => b.watch("/a/", new Recorder().options(0), new AbortController().signal)],
];

export function closeTests(open: OpenBackend): void {
  it("ends every pending watch once when closed and refuses every call afterwards", async () => {
    const b = await open();
    let closed = false;
    try {
      const start = await b.currentRevision();
      await b.create("/a/1", "one");
      const watching = [new Recorder(), new Recorder(), new Recorder()];
      const prefixes = ["/a/", "/b/", ""];
      for (const [i, rec] of watching.entries()) {
        await b.watch(prefixes[i]!, rec.options(start), rec.signal);
      }
      await watching[0]!.waitForEvents(1);
      const aborted = new Recorder();
      await b.watch("/a/", aborted.options(start), aborted.signal);
      aborted.controller.abort();
      closed = true;
      await b.close();
      for (const rec of watching) {
        assert.ok((await rec.waitForError()) instanceof BackendClosedError);
        assert.equal(rec.errors.length, 1);
      }
      // An aborted watch has already ended: close does not tell it again.
      assert.deepEqual(aborted.errors, []);
      for (const [name, call] of calls) {
        await assert.rejects(call(b), BackendClosedError, `${name} after close`);
      }
      // Aborting after close is harmless, and close again is a no-op.
      for (const rec of watching) rec.controller.abort();
      await b.close();
      for (const rec of watching) assert.equal(rec.errors.length, 1);
    } finally {
      if (!closed) await b.close();
    }
  });
}
