/**
 * Every call's `signal` against a real apiserver whose storage holds the
 * request (GatedBackend), so the call is in flight in the server when it is
 * aborted: the call fails with an AbortError, the server finishes on its own,
 * and a call after the abort works.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type LoopbackApiServer,
  shutdown,
  startLoopbackApiServer,
  waitUntil,
} from "../../test/support/loopback-apiserver.js";
import type { KubeObject } from "../api/index.js";
import { createHttpClient, type HttpClient } from "./http-client.js";

const ref = { apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "default" };
const type = { apiVersion: "v1", kind: "ConfigMap" };
const cm = (name: string) => ({ ...type, metadata: { name, namespace: "default" } });

const isAbort = (e: unknown) => e instanceof Error && e.name === "AbortError";

describe("HttpClient call signals", () => {
  let server: LoopbackApiServer;
  let client: HttpClient;

  before(async () => {
    server = await startLoopbackApiServer();
    client = createHttpClient({ server: server.url });
    await client.create(cm("x"));
  });

  after(async () => {
    await shutdown(server, client);
  });

  /** Starts `call` with storage held, waits until the server is in it, aborts, and expects an AbortError. */
  async function abortsInFlight(call: (signal: AbortSignal) => Promise<unknown>) {
    const ctl = new AbortController();
    server.backend.hold = true;
    const pending = call(ctl.signal);
    try {
      await waitUntil(() => server.backend.waiting.length > 0, "the server to reach storage");
      ctl.abort();
      await assert.rejects(pending, isAbort);
    } finally {
      server.backend.release();
    }
  }

  const cases: [string, (signal: AbortSignal) => Promise<unknown>][] = [
    ["get", (signal) => client.get(ref, { signal })],
    ["list", (signal) => client.list(type, { namespace: "default", signal })],
    ["patch", (signal) => client.patch(ref, { data: { a: "b" } }, { type: "merge", signal })],
    ["create", (signal) => client.create(cm("created"), { signal })],
    ["delete", (signal) => client.delete({ ...ref, name: "created" }, { signal })],
  ];
  for (const [verb, call] of cases) {
    it(`aborts a ${verb} in flight; the next call goes through`, async () => {
      await abortsInFlight(call);
      const after = await client.get(ref);
      assert.equal(after.metadata.name, "x");
    });
  }

  it("the server completes a write whose caller aborted", async () => {
    // The patch above was aborted while the server held it; released, the server applied it.
    await waitUntil(
      async () =>
        (await client.get<KubeObject & { data?: Record<string, string> }>(ref)).data?.a === "b",
      "the aborted patch to be applied",
    );
  });

  it("sends nothing when the signal is already aborted", async () => {
    server.tap.requests.length = 0;
    await assert.rejects(client.get(ref, { signal: AbortSignal.abort() }), isAbort);
    assert.deepEqual(server.calls(), []);
  });

  it("ends a watch in flight when its signal aborts, and the server's watch with it", async () => {
    const ctl = new AbortController();
    const seen: string[] = [];
    for await (const ev of client.watch(type, { namespace: "default", signal: ctl.signal })) {
      seen.push(ev.type);
      ctl.abort();
    }
    assert.deepEqual(seen, ["ADDED"]);
    await waitUntil(
      () => server.backend.openWatches("/registry/core/configmaps/default/") === 0,
      "the server to drop the watch",
    );
  });
});
