/**
 * Watching a real Hearth apiserver: the query and the events of real writes,
 * bookmarks, 410 Expired after a compaction, the server ending the stream
 * (timeoutSeconds, shutdown), and every way the client stops (abort, early
 * exit) freeing the server's watch. One case keeps a raw node:http socket
 * fixture for what the real server never sends: events split across chunks and
 * an ERROR in the middle of a stream that stays open.
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  type LoopbackApiServer,
  shutdown,
  startLoopbackApiServer,
  waitUntil,
} from "../../test/support/loopback-apiserver.js";
import type { KubeObject, WatchEvent } from "../api/index.js";
import { ApiError } from "../api/index.js";
import { createHttpClient, type HttpClient } from "./http-client.js";
import type { WatchOptions } from "./interface.js";

const CM = { apiVersion: "v1", kind: "ConfigMap" };
const configMap = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  ...CM,
  metadata: { name, namespace: "ns", labels },
  data: { v: "1" },
});
const cmRef = (name: string) => ({ ...CM, name, namespace: "ns" });

describe("HttpClient.watch", () => {
  let server: LoopbackApiServer;
  let client: HttpClient;
  const others: HttpClient[] = [];
  /** Watches the server holds open on the ConfigMaps of "ns". */
  const serverWatches = () => server.backend.openWatches("/registry/core/configmaps/ns/");
  const revision = async () => String(await server.backend.currentRevision());

  before(async () => {
    server = await startLoopbackApiServer({ bookmarkIntervalMs: 20 });
    client = createHttpClient({ server: server.url });
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "ns" } });
    for (const name of ["first", "second"]) await client.create(configMap(name));
  });

  after(async () => {
    await shutdown(server, client, ...others);
  });

  beforeEach(() => {
    server.tap.requests.length = 0;
  });

  /** Watches "ns" with `opts`, calling `onEvent` on each, until the stream ends. */
  const collect = async (
    opts: WatchOptions & { signal?: AbortSignal },
    onEvent?: (e: WatchEvent) => void,
    c: HttpClient = client,
  ) => {
    const names: string[] = [];
    const signal = opts.signal ?? new AbortController().signal;
    for await (const e of c.watch(CM, { namespace: "ns", ...opts, signal })) {
      if (e.type !== "BOOKMARK") names.push(`${e.type}:${e.object.metadata.name}`);
      onEvent?.(e);
    }
    return names;
  };

  it("sends the watch query, yields the selected writes, and reuses the socket once the server ends the stream", async () => {
    const connections = server.tap.connections;
    const own = createHttpClient({ server: server.url });
    others.push(own);
    const from = (await own.list(CM, { namespace: "ns" })).metadata.resourceVersion!;
    const a = await client.create(configMap("a", { app: "x" }));
    await client.update({ ...a, data: { v: "2" } });
    await client.create(configMap("not-selected", { app: "y" }));
    await client.delete(cmRef("a"));
    const opts = {
      labelSelector: "app=x",
      resourceVersion: from,
      allowWatchBookmarks: true,
      timeoutSeconds: 1,
    };
    // timeoutSeconds: the server ends the stream by itself after a second.
    assert.deepEqual(await collect(opts, undefined, own), ["ADDED:a", "MODIFIED:a", "DELETED:a"]);
    assert.ok(
      server.tap.requests.some(
        (r) =>
          r.url ===
          `/api/v1/namespaces/ns/configmaps?watch=true&labelSelector=app%3Dx&resourceVersion=${from}&allowWatchBookmarks=true&timeoutSeconds=1`,
      ),
    );
    await own.list(CM, { namespace: "ns" });
    assert.equal(
      server.tap.connections - connections,
      1,
      "discovery, list, watch, list: one socket",
    );
  });

  it("yields bookmarks carrying the newest revision when asked for them", async () => {
    const written = await client.create(configMap("bookmarked"));
    const ac = new AbortController();
    let bookmark: KubeObject | undefined;
    await collect(
      {
        resourceVersion: written.metadata.resourceVersion!,
        allowWatchBookmarks: true,
        signal: ac.signal,
      },
      (e) => {
        if (e.type !== "BOOKMARK") return;
        bookmark = e.object;
        ac.abort();
      },
    );
    assert.equal(bookmark?.kind, "ConfigMap");
    assert.ok(
      Number(bookmark?.metadata.resourceVersion) >= Number(written.metadata.resourceVersion),
    );
  });

  it("throws 410 Expired for a resourceVersion compacted away", async () => {
    const old = await revision();
    const cm = await client.create(configMap("churn"));
    await client.update({ ...cm, data: { v: "2" } });
    await server.backend.compact(await server.backend.currentRevision());
    await assert.rejects(
      collect({ resourceVersion: old }),
      (e: unknown) =>
        e instanceof ApiError &&
        e.code === 410 &&
        e.reason === "Expired" &&
        /too old resource version/.test(e.message),
    );
    // The current revision is still within the window.
    const ac = new AbortController();
    const live = collect({ resourceVersion: await revision(), signal: ac.signal }, () =>
      ac.abort(),
    );
    await client.delete(cmRef("churn"));
    assert.deepEqual(await live, ["DELETED:churn"]);
  });

  it("ends quietly when the signal aborts mid-stream, and the server's watch ends", async () => {
    const ac = new AbortController();
    const names = await collect({ signal: ac.signal }, () => ac.abort());
    assert.equal(names.length, 1);
    await waitUntil(() => serverWatches() === 0, "the server to drop the watch");
  });

  it("closes the stream when the consumer stops early", async () => {
    for await (const e of client.watch(CM, {
      namespace: "ns",
      signal: new AbortController().signal,
    })) {
      assert.equal(e.type, "ADDED");
      break;
    }
    await waitUntil(() => serverWatches() === 0, "the server to drop the watch");
  });

  it("ends quietly when aborted before the response headers arrive", async () => {
    // A network that takes the request but delivers nothing.
    server.tap.partition();
    try {
      const ac = new AbortController();
      const done = collect({ signal: ac.signal });
      await waitUntil(
        () => server.tap.requests.some((r) => r.url.includes("watch=true")),
        "the watch request",
      );
      ac.abort();
      assert.deepEqual(await done, []);
      await waitUntil(() => server.tap.openConnections === 0, "the watch connection to close");
    } finally {
      server.tap.heal();
    }
  });

  it("sends nothing for a signal that is already aborted", async () => {
    assert.deepEqual(await collect({ signal: AbortSignal.abort() }), []);
    assert.deepEqual(server.calls(), []);
  });

  it("throws the ApiError of a refused watch", async () => {
    await assert.rejects(collect({ labelSelector: "a b c" }), { code: 400, reason: "BadRequest" });
  });

  it("ends when the server shuts down", async () => {
    const own = await startLoopbackApiServer();
    const c = createHttpClient({ server: own.url });
    try {
      const watching = collect({}, undefined, c);
      await waitUntil(
        () => own.backend.openWatches("/registry/core/configmaps/ns/") === 1,
        "the watch to be open",
      );
      await own.stop();
      // The server ends the stream, or its shutdown resets the connection first.
      const outcome = await watching.then(
        (names) => `ended ${names.length}`,
        (e: NodeJS.ErrnoException) => e.code,
      );
      assert.ok(["ended 0", "ECONNRESET"].includes(String(outcome)), String(outcome));
    } finally {
      c.close();
      await own.stop();
    }
  });
});

/** Serves ConfigMap discovery, then answers every watch with `parts`, leaving it open. */
async function rawWatchServer(parts: string[]) {
  let closed = false;
  const server = http.createServer((req, res) => {
    if (req.url === "/api/v1") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          resources: [{ name: "configmaps", kind: "ConfigMap", namespaced: true }],
        }),
      );
      return;
    }
    res.on("close", () => {
      closed = true;
    });
    res.writeHead(200, { "content-type": "application/json" });
    res.flushHeaders();
    void (async () => {
      for (const part of parts) {
        res.write(part);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    closed: () => closed,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const line = (type: string, object: unknown) => `${JSON.stringify({ type, object })}\n`;

describe("HttpClient.watch on a raw socket fixture", () => {
  it("decodes events split across chunks and packed in one, throws an ERROR mid-stream and drops the connection", async () => {
    const cm = (name: string) => ({ ...CM, metadata: { name, resourceVersion: "1" } });
    const a = line("ADDED", cm("a"));
    const b = line("MODIFIED", cm("b"));
    const expired = line("ERROR", {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      reason: "Expired",
      code: 410,
      message: "too old resource version: 1 (9)",
    });
    const raw = await rawWatchServer([
      a.slice(0, 10),
      a.slice(10) + b.slice(0, 5),
      b.slice(5),
      "\n",
      expired,
    ]);
    const c = createHttpClient({ server: raw.url });
    try {
      const seen: string[] = [];
      const watching = (async () => {
        for await (const e of c.watch(CM, { signal: new AbortController().signal }))
          seen.push(`${e.type}:${e.object.metadata.name}`);
      })();
      await assert.rejects(watching, { code: 410, reason: "Expired" });
      assert.deepEqual(seen, ["ADDED:a", "MODIFIED:b"]);
      await waitUntil(raw.closed, "the watch connection to close");
    } finally {
      c.close();
      await raw.stop();
    }
  });
});
