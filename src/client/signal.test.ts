/** Every call's `signal`: aborting it ends a request in flight, before or after its headers. */
import assert from "node:assert/strict";
import type http from "node:http";
import { after, before, beforeEach, describe, it } from "node:test";
import { FakeApiServer, shutdown, waitFor } from "../../test/support/fixtures/fake-apiserver.js";
import { createHttpClient, type HttpClient } from "./http-client.js";

const ref = { apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "default" };
const type = { apiVersion: "v1", kind: "ConfigMap" };

const isAbort = (e: unknown) => e instanceof Error && e.name === "AbortError";

describe("HttpClient call signals", () => {
  let server: FakeApiServer;
  let client: HttpClient;
  /** Requests the server holds unanswered, so that only an abort can end them. */
  const held: http.ServerResponse[] = [];

  before(async () => {
    server = await FakeApiServer.start();
    server.discovery.set("/api/v1", [{ name: "configmaps", kind: "ConfigMap", namespaced: true }]);
    client = createHttpClient({ server: server.url });
  });

  after(async () => {
    for (const res of held) res.destroy();
    await shutdown(server, client);
  });

  beforeEach(() => {
    server.requests.length = 0;
    server.handler = (_req, res) => held.push(res);
  });

  /** Starts `call`, waits until the server holds it, aborts, and expects an AbortError. */
  async function abortsInFlight(call: (signal: AbortSignal) => Promise<unknown>) {
    const ctl = new AbortController();
    const before = held.length;
    const pending = call(ctl.signal);
    await waitFor(() => held.length > before, "the server to receive the request");
    ctl.abort();
    await assert.rejects(pending, isAbort);
  }

  it("aborts a get in flight", async () => {
    await abortsInFlight((signal) => client.get(ref, { signal }));
  });

  it("aborts a list in flight", async () => {
    await abortsInFlight((signal) => client.list(type, { namespace: "default", signal }));
  });

  it("aborts a patch in flight", async () => {
    await abortsInFlight((signal) => client.patch(ref, { data: {} }, { type: "merge", signal }));
  });

  it("aborts a delete and a create in flight", async () => {
    await abortsInFlight((signal) => client.delete(ref, { signal }));
    const cm = { ...type, metadata: { name: "x", namespace: "default" } };
    await abortsInFlight((signal) => client.create(cm, { signal }));
  });

  it("sends nothing when the signal is already aborted", async () => {
    await assert.rejects(client.get(ref, { signal: AbortSignal.abort() }), isAbort);
    assert.deepEqual(server.calls, []);
  });

  it("ends a watch in flight when its signal aborts", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`${JSON.stringify({ type: "ADDED", object: { ...ref, metadata: {} } })}\n`);
      held.push(res);
    };
    const ctl = new AbortController();
    const seen: string[] = [];
    for await (const ev of client.watch(type, { namespace: "default", signal: ctl.signal })) {
      seen.push(ev.type);
      ctl.abort();
    }
    assert.deepEqual(seen, ["ADDED"]);
  });
});
