/**
 * WATCH over HTTP on a real ApiServer with the memory backend: the current state
 * as ADDED without a resourceVersion, exactly the later changes with one (resume
 * with no gap or duplicate), a future one waited for, 410 Expired for a compacted
 * one, bookmarks carrying only a resourceVersion, and timeoutSeconds ending it.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { MemoryBackend } from "../../storage/index.js";
import { ApiServer } from "../server.js";

interface WatchEvent {
  type: string;
  object: KubeObject & { code?: number; reason?: string; message?: string };
}

/** One watch stream: events as they arrive, and whether the server ended it. */
class Stream {
  readonly events: WatchEvent[] = [];
  ended = false;
  readonly #close: () => void;
  readonly #waiters = new Set<() => void>();

  constructor(url: string) {
    const req = request(url, (res) => {
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
          this.events.push(JSON.parse(buffer.slice(0, nl)) as WatchEvent);
          buffer = buffer.slice(nl + 1);
        }
        this.#notify();
      });
      res.on("end", () => {
        this.ended = true;
        this.#notify();
      });
    });
    req.on("error", () => {
      this.ended = true;
      this.#notify();
    });
    req.end();
    this.#close = () => req.destroy();
  }

  /** Waits (with a deadline) until `condition` holds. */
  until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(
          new Error(
            `timed out waiting for ${what}: ${JSON.stringify(this.events.map((e) => e.type))}`,
          ),
        );
      }, ms);
      this.#waiters.add(check);
    });
  }

  /** The non-bookmark events once there are `count` of them. */
  async changes(count: number): Promise<WatchEvent[]> {
    const changes = () => this.events.filter((e) => e.type !== "BOOKMARK");
    await this.until(() => changes().length >= count, `${count} events`);
    return changes();
  }

  close(): void {
    this.#close();
  }

  #notify(): void {
    for (const w of [...this.#waiters]) w();
  }
}

const PATH = "/api/v1/namespaces/default/configmaps";
const summary = (events: WatchEvent[]) =>
  events.map((e) => [
    e.type,
    e.object.metadata?.name,
    (e.object as { data?: { v?: string } }).data?.v,
  ]);

describe("WATCH", () => {
  let backend: MemoryBackend;
  let server: ApiServer;
  const controller = new AbortController();
  let base = "";
  const streams: Stream[] = [];
  const watch = (query: string) => {
    const s = new Stream(`${base}${PATH}?watch=true&${query}`);
    streams.push(s);
    return s;
  };
  async function write(method: string, name: string, v?: string): Promise<KubeObject> {
    const path = method === "POST" ? PATH : `${PATH}/${name}`;
    const body =
      method === "DELETE"
        ? undefined
        : JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v } });
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "Content-Type": "application/json" },
      ...(body ? { body } : {}),
    });
    assert.ok(res.ok, `${method} ${name}: ${res.status}`);
    return (await res.json()) as KubeObject;
  }
  const rv = (o: KubeObject) => Number(o.metadata.resourceVersion);

  before(async () => {
    backend = new MemoryBackend();
    server = new ApiServer({ backend, tokens: new Map(), port: 0, bookmarkIntervalMs: 50 });
    await server.start(controller.signal);
    base = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    for (const s of streams) s.close();
    controller.abort();
    await server.closed();
    await backend.close();
  });

  it("starts with the current state as ADDED, then streams changes", async () => {
    await write("POST", "w1", "1");
    await write("POST", "w2", "1");
    const s = watch("");
    await s.changes(2);
    await write("PUT", "w1", "2");
    await write("DELETE", "w2");
    assert.deepEqual(summary(await s.changes(4)), [
      ["ADDED", "w1", "1"],
      ["ADDED", "w2", "1"],
      ["MODIFIED", "w1", "2"],
      ["DELETED", "w2", "1"],
    ]);
    s.close();
    await write("DELETE", "w1");
  });

  it("resumes from a resourceVersion with exactly the later changes, no gap or duplicate", async () => {
    const first = await write("POST", "r1", "1");
    const s = watch("");
    await s.changes(1);
    const second = await write("PUT", "r1", "2");
    await s.changes(2);
    // Disconnected; meanwhile more happens.
    s.close();
    await write("PUT", "r1", "3");
    await write("DELETE", "r1");
    const deletedAt = await backend.currentRevision();
    const resumed = watch(`resourceVersion=${rv(second)}`);
    const events = await resumed.changes(2);
    assert.deepEqual(summary(events), [
      ["MODIFIED", "r1", "3"],
      ["DELETED", "r1", "3"],
    ]);
    assert.ok(rv(events[0]!.object) > rv(second));
    assert.equal(rv(events[1]!.object), deletedAt, "a deletion carries its own revision");
    assert.ok(rv(first) < rv(second));
    resumed.close();
  });

  it("waits for a resourceVersion the server has not reached", async () => {
    const now = await backend.currentRevision();
    const s = watch(`resourceVersion=${now + 1}`);
    await write("POST", "f1", "skipped");
    await write("PUT", "f1", "seen");
    assert.deepEqual(summary(await s.changes(1)), [["MODIFIED", "f1", "seen"]]);
    s.close();
    await write("DELETE", "f1");
  });

  it("ends a watch from a compacted resourceVersion with one 410 Expired event", async () => {
    const old = await write("POST", "c1", "1");
    await write("PUT", "c1", "2");
    await backend.compact(await backend.currentRevision());
    const s = watch(`resourceVersion=${rv(old)}`);
    await s.until(() => s.ended, "the stream to end");
    assert.equal(s.events.length, 1);
    const [error] = s.events;
    assert.equal(error!.type, "ERROR");
    assert.equal(error!.object.code, 410);
    assert.equal(error!.object.reason, "Expired");
    assert.match(error!.object.message ?? "", new RegExp(`too old resource version: ${rv(old)}`));
  });

  it("sends bookmarks with only a resourceVersion, never behind the last event", async () => {
    const s = watch("allowWatchBookmarks=true");
    const made = await write("POST", "b1", "1");
    await s.until(() => s.events.filter((e) => e.type === "BOOKMARK").length >= 2, "two bookmarks");
    const bookmarks = s.events.filter((e) => e.type === "BOOKMARK");
    for (const b of bookmarks) {
      assert.deepEqual(Object.keys(b.object.metadata), ["resourceVersion"]);
      assert.equal(b.object.kind, "ConfigMap");
    }
    assert.ok(rv(bookmarks.at(-1)!.object) >= rv(made));
    // Without asking, none.
    const plain = watch("");
    const later = await write("PUT", "b1", "2");
    await plain.until(() => plain.events.some((e) => rv(e.object) === rv(later)), "the update");
    await s.until(
      () => s.events.filter((e) => e.type === "BOOKMARK").length >= bookmarks.length + 2,
      "more bookmarks",
    );
    assert.ok(plain.events.every((e) => e.type !== "BOOKMARK"));
    s.close();
    plain.close();
  });

  it("ends the stream after timeoutSeconds", async () => {
    const started = Date.now();
    const s = watch("timeoutSeconds=1");
    await s.until(() => s.ended, "the timeout", 5000);
    assert.ok(Date.now() - started >= 900);
  });
});

/** A backend whose events reach watchers late, as etcd's arrive on their stream. */
class LateBackend extends MemoryBackend {
  override readonly deliversOnCommit = false;
  readonly held: (() => void)[] = [];
  hold = false;

  override watch(
    prefix: string,
    options: Parameters<MemoryBackend["watch"]>[1],
    signal: AbortSignal,
  ): Promise<void> {
    const onEvent = options.onEvent;
    return super.watch(
      prefix,
      {
        ...options,
        onEvent: (ev) => (this.hold ? this.held.push(() => onEvent(ev)) : onEvent(ev)),
      },
      signal,
    );
  }
}

describe("WATCH bookmarks on a backend that delivers after commit", () => {
  const backend = new LateBackend();
  const server = new ApiServer({ backend, tokens: new Map(), port: 0, bookmarkIntervalMs: 20 });
  const controller = new AbortController();
  after(async () => {
    controller.abort();
    await server.closed();
    await backend.close();
  });

  it("names no revision whose event it has not sent yet", async () => {
    await server.start(controller.signal);
    const s = new Stream(
      `http://127.0.0.1:${server.port}${PATH}?watch=true&allowWatchBookmarks=true`,
    );
    await s.until(() => s.events.some((e) => e.type === "BOOKMARK"), "a first bookmark");
    backend.hold = true;
    const res = await fetch(`http://127.0.0.1:${server.port}${PATH}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "late" } }),
    });
    assert.equal(res.status, 201);
    const made = Number(((await res.json()) as KubeObject).metadata.resourceVersion);
    const seen = s.events.length;
    await s.until(
      () => s.events.slice(seen).filter((e) => e.type === "BOOKMARK").length >= 3,
      "bookmarks while the event is held",
    );
    for (const b of s.events.slice(seen))
      assert.ok(
        Number(b.object.metadata.resourceVersion) < made,
        "a bookmark ran ahead of its event",
      );
    backend.hold = false;
    for (const deliver of backend.held.splice(0)) deliver();
    await s.until(() => s.events.some((e) => e.type === "ADDED"), "the held event");
    await s.until(
      () => Number(s.events.at(-1)!.object.metadata.resourceVersion) >= made,
      "a bookmark at the event",
    );
    s.close();
  });
});
