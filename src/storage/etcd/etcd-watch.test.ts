/**
 * startEtcdWatch against a stand-in for etcd3's watch client (the real etcd
 * runs in the shared backend suite): what it opens and when it delivers.
 */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { describe, it } from "node:test";
import type { Etcd3 } from "etcd3";
import type { StorageEvent } from "../backend.js";
import { KeySpace } from "./etcd-client.js";
import { startEtcdWatch } from "./etcd-watch.js";

class Stream extends EventEmitter {
  readonly writes: unknown[] = [];
  cancelled = false;
  write(req: unknown) {
    this.writes.push(req);
  }
  cancel() {
    this.cancelled = true;
  }
}

function standIn() {
  const streams: Stream[] = [];
  const client = {
    watchClient: {
      watch: async () => {
        const s = new Stream();
        streams.push(s);
        return s;
      },
    },
  } as unknown as Etcd3;
  return { client, streams };
}

const put = (key: string, rev: number) => ({
  type: "Put",
  kv: {
    key: Buffer.from(key),
    value: Buffer.from("v"),
    create_revision: String(rev),
    mod_revision: String(rev),
  },
});

function watch(client: Etcd3, signal: AbortSignal, events: StorageEvent[]) {
  let ended = 0;
  const w = startEtcdWatch({
    client,
    keys: new KeySpace("/p"),
    prefix: "/a/",
    options: { after: 0, onEvent: (e) => events.push(e) },
    signal,
    onCompacted: () => {},
    onEnd: () => ended++,
  });
  return { w, ended: () => ended };
}

describe("startEtcdWatch", () => {
  it("opens no stream for a signal that is aborted already, and settles at once", async () => {
    const { client, streams } = standIn();
    const events: StorageEvent[] = [];
    const { w, ended } = watch(client, AbortSignal.abort(), events);
    // Not before startEtcdWatch returns: the backend's onEnd names the watch it returned.
    assert.equal(ended(), 0);
    await w.established;
    await new Promise((r) => setImmediate(r));
    assert.equal(streams.length, 0);
    assert.equal(ended(), 1);
  });

  it("delivers until its signal aborts, then cancels the stream and drops what still arrives", async () => {
    const { client, streams } = standIn();
    const events: StorageEvent[] = [];
    const ac = new AbortController();
    const { w, ended } = watch(client, ac.signal, events);
    await new Promise((r) => setImmediate(r));
    const s = streams[0]!;
    assert.equal(s.writes.length, 1);
    s.emit("data", { created: true, events: [] });
    await w.established;
    s.emit("data", { events: [put("/p/a/1", 2)] });
    ac.abort();
    s.emit("data", { events: [put("/p/a/2", 3)] });
    assert.deepEqual(
      events.map((e) => e.kv.key),
      ["/a/1"],
    );
    assert.equal(s.cancelled, true);
    assert.equal(ended(), 1);
  });
});
