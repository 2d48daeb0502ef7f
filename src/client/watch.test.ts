/** Watching over HTTP: chunked streams, ERROR events, abort and early exit free the socket. */
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  FakeApiServer,
  sendJson,
  shutdown,
  statusBody,
  waitFor,
} from "../../test/support/fixtures/fake-apiserver.js";
import type { WatchEvent } from "../api/index.js";
import { ApiError } from "../api/index.js";
import { createHttpClient, type HttpClient } from "./http-client.js";

const line = (type: string, name: string, rv: string) =>
  `${JSON.stringify({ type, object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name, resourceVersion: rv } } })}\n`;

/** Starts a chunked watch response and writes `parts` one by one, yielding between. */
async function stream(res: ServerResponse, parts: string[], end: boolean): Promise<void> {
  res.writeHead(200, { "content-type": "application/json" });
  res.flushHeaders();
  for (const part of parts) {
    res.write(part);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (end) res.end();
}

describe("HttpClient.watch", () => {
  let server: FakeApiServer;
  let client: HttpClient;
  /** Set when the current watch response's connection has closed. */
  let closed: boolean;

  before(async () => {
    server = await FakeApiServer.start();
    server.discovery.set("/api/v1", [{ name: "configmaps", kind: "ConfigMap", namespaced: true }]);
    client = createHttpClient({ server: server.url });
    await client.mapper.resolve("v1", "ConfigMap");
  });

  after(async () => {
    await shutdown(server, client);
  });

  beforeEach(() => {
    server.requests.length = 0;
    closed = false;
  });

  /** Answers the watch with `parts`, noting when its connection closes. */
  const serve = (parts: string[], end: boolean) => {
    server.handler = (_req, res) => {
      res.on("close", () => {
        closed = true;
      });
      void stream(res, parts, end);
    };
  };

  const collect = async (signal: AbortSignal, onEvent?: (e: WatchEvent) => void) => {
    const names: string[] = [];
    for await (const e of client.watch(
      { apiVersion: "v1", kind: "ConfigMap" },
      { namespace: "ns", signal },
    )) {
      names.push(`${e.type}:${e.object.metadata.name}`);
      onEvent?.(e);
    }
    return names;
  };

  it("sends the watch query and yields events split across chunks and packed in one", async () => {
    const a = line("ADDED", "a", "1");
    const b = line("MODIFIED", "b", "2");
    const c = line("DELETED", "c", "3");
    serve([a.slice(0, 10), a.slice(10) + b.slice(0, 5), b.slice(5) + c, "\n"], true);
    const events: string[] = [];
    const opts = {
      namespace: "ns",
      labelSelector: "app=x",
      resourceVersion: "5",
      allowWatchBookmarks: true,
      timeoutSeconds: 300,
    };
    for await (const e of client.watch(
      { apiVersion: "v1", kind: "ConfigMap" },
      { ...opts, signal: new AbortController().signal },
    )) {
      events.push(`${e.type}:${e.object.metadata.name}`);
    }
    assert.deepEqual(events, ["ADDED:a", "MODIFIED:b", "DELETED:c"]);
    assert.equal(
      server.calls[0]?.url,
      "/api/v1/namespaces/ns/configmaps?watch=true&labelSelector=app%3Dx&resourceVersion=5&allowWatchBookmarks=true&timeoutSeconds=300",
    );
    // The stream ended cleanly, so its keep-alive socket serves the next request.
    server.handler = (_req, res) => sendJson(res, 200, { items: [], metadata: {} });
    await client.list({ apiVersion: "v1", kind: "ConfigMap" });
    assert.equal(server.openConnections, 1);
  });

  it("throws 410 Expired from an ERROR event and drops the connection", async () => {
    const expired = {
      type: "ERROR",
      object: statusBody(410, "Expired", "too old resource version: 1 (9)"),
    };
    serve([line("ADDED", "a", "1"), `${JSON.stringify(expired)}\n`], false);
    const seen: string[] = [];
    await assert.rejects(
      collect(new AbortController().signal, (e) => seen.push(e.type)),
      (e: unknown) => e instanceof ApiError && e.code === 410 && e.reason === "Expired",
    );
    assert.deepEqual(seen, ["ADDED"]);
    await waitFor(() => closed, "the watch connection to close");
  });

  it("ends quietly when the signal aborts mid-stream, destroying the socket", async () => {
    serve([line("ADDED", "a", "1")], false);
    const ac = new AbortController();
    const names = await collect(ac.signal, () => ac.abort());
    assert.deepEqual(names, ["ADDED:a"]);
    await waitFor(() => closed, "the watch connection to close");
  });

  it("ends quietly when aborted before the response headers arrive", async () => {
    server.handler = (_req, res) => {
      res.on("close", () => {
        closed = true;
      });
    };
    const ac = new AbortController();
    const done = collect(ac.signal);
    await waitFor(() => server.calls.length === 1, "the watch request");
    ac.abort();
    assert.deepEqual(await done, []);
    await waitFor(() => closed, "the watch connection to close");
  });

  it("sends nothing for a signal that is already aborted", async () => {
    const ac = new AbortController();
    ac.abort();
    assert.deepEqual(await collect(ac.signal), []);
    assert.equal(server.calls.length, 0);
  });

  it("closes the connection when the consumer stops early", async () => {
    serve([line("ADDED", "a", "1"), line("ADDED", "b", "2")], false);
    for await (const e of client.watch(
      { apiVersion: "v1", kind: "ConfigMap" },
      { signal: new AbortController().signal },
    )) {
      assert.equal(e.object.metadata.name, "a");
      break;
    }
    await waitFor(() => closed, "the watch connection to close");
  });

  it("throws the ApiError of a refused watch", async () => {
    server.handler = (_req, res) =>
      sendJson(res, 403, statusBody(403, "Forbidden", 'configmaps is forbidden: User "x"'));
    await assert.rejects(collect(new AbortController().signal), {
      code: 403,
      reason: "Forbidden",
      message: 'configmaps is forbidden: User "x"',
    });
  });
});
