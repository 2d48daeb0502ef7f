/** The watch hub: dedup between replay and live events, and a throwing callback. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StorageEvent } from "./backend.js";
import { BackendClosedError } from "./errors.js";
import { WatchHub } from "./watch-hub.js";

const put = (key: string, revision: number): StorageEvent => ({
  type: "put",
  kv: { key, value: "v", createRevision: revision, modRevision: revision },
});

describe("WatchHub", () => {
  it("drops events at or below what replay delivered", () => {
    const hub = new WatchHub();
    const seen: number[] = [];
    const onEvent = (e: StorageEvent) => seen.push(e.kv.modRevision);
    hub.watch("/a/", { after: 1, onEvent }, new AbortController().signal, (offer) => {
      for (const revision of [2, 3]) offer(put("/a/x", revision));
    });
    for (const revision of [3, 4]) hub.publish(put("/a/x", revision));
    hub.publish(put("/b/x", 5));
    hub.publish(put("/a/y", 6));
    assert.deepEqual(seen, [2, 3, 4, 6]);
  });

  it("ends a watch whose callback throws, and only that one", () => {
    const hub = new WatchHub();
    const errors: Error[] = [];
    const seen: number[] = [];
    const signal = new AbortController().signal;
    const onEvent = () => {
      throw new Error("bad callback");
    };
    hub.watch("/", { after: 0, onEvent, onError: (e) => errors.push(e) }, signal, () => {});
    hub.watch("/", { after: 0, onEvent: (e) => seen.push(e.kv.modRevision) }, signal, () => {});
    hub.publish(put("/a", 1));
    hub.publish(put("/a", 2));
    assert.deepEqual(
      errors.map((e) => e.message),
      ["bad callback"],
    );
    assert.deepEqual(seen, [1, 2]);
  });

  it("ends watches on close, not on abort, and refuses new ones", () => {
    const hub = new WatchHub();
    const errors: Error[] = [];
    const aborted = new AbortController();
    const options = { after: 0, onEvent: () => {}, onError: (e: Error) => errors.push(e) };
    hub.watch("/", options, aborted.signal, () => {});
    hub.watch("/", options, new AbortController().signal, () => {});
    aborted.abort();
    hub.close(new BackendClosedError());
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof BackendClosedError);
    assert.throws(
      () => hub.watch("/", options, new AbortController().signal, () => {}),
      BackendClosedError,
    );
  });
});
