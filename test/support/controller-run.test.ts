/**
 * The controller-test helpers do what the crash and conflict tests rely on:
 * `intercept` runs its hooks around each call and, for a watch, when it is
 * opened; `crashAfter` fails the crashing call and everything after it, which
 * never reaches the API; `conflictBefore` interferes before the first matching
 * calls and counts their 409s; the call predicates pick what they say; and
 * `runManager`'s stop is idempotent.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "../../src/api/index.js";
import type { Client } from "../../src/client/index.js";
import {
  type Call,
  CrashError,
  callTarget,
  conflictBefore,
  crashAfter,
  intercept,
  isRequest,
  isWrite,
  runManager,
} from "./controller-run.js";
import { startEnv } from "./envtest.js";

const CM = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "d" } };

/** A client whose calls are recorded; `create` of `conflicting` names answers 409. */
function fakeClient(conflicting = new Set<string>()) {
  const reached: string[] = [];
  const mapper = {};
  const fake = {
    mapper,
    close: () => reached.push("close"),
    async create(obj: typeof CM) {
      reached.push(`create ${obj.metadata.name}`);
      if (conflicting.has(obj.metadata.name)) throw new ApiError(409, "Conflict", "stale");
      return obj;
    },
    async request(method: string, path: string) {
      reached.push(`${method} ${path}`);
      return { status: 409, headers: {}, body: "" };
    },
    watch() {
      reached.push("watch called");
      return (async function* () {
        reached.push("watch opened");
        yield { type: "ADDED", object: CM };
      })();
    },
  };
  return { client: fake as unknown as Client, reached, mapper };
}

async function drain(it: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe("controller-run helpers", () => {
  it("intercept: hooks around calls; a watch's `before` runs when it is opened", async () => {
    const { client, reached, mapper } = fakeClient(new Set(["bad"]));
    const seen: string[] = [];
    const wrapped = intercept(client, {
      before: (c) => void seen.push(`before ${c.method}`),
      after: (c) => void seen.push(`after ${c.method}`),
      failed: (c, e) => void seen.push(`failed ${c.method} ${(e as ApiError).code}`),
    });
    await wrapped.create(CM);
    await assert.rejects(wrapped.create({ ...CM, metadata: { name: "bad" } }));
    const events = wrapped.watch({ apiVersion: "v1", kind: "ConfigMap" }, {});
    assert.deepEqual(seen, ["before create", "after create", "before create", "failed create 409"]);
    assert.equal((await drain(events)).length, 1);
    assert.equal(seen.at(-1), "before watch", "told when the watch is opened, not after");
    assert.equal(wrapped.mapper, mapper);
    // An HttpClient's close is not a call to hook (and stays synchronous).
    (wrapped as unknown as { close(): void }).close();
    assert.deepEqual(reached, ["create a", "create bad", "watch called", "watch opened", "close"]);
  });

  it("intercept: a real HttpClient's watch runs bound to the client, its `before` first", async () => {
    const env = await startEnv();
    try {
      await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "d" } });
      await env.client.create(CM);
      const seen: string[] = [];
      const wrapped = intercept(env.client, { before: (c) => void seen.push(c.method) });
      const stop = new AbortController();
      for await (const e of wrapped.watch(
        { apiVersion: "v1", kind: "ConfigMap" },
        { namespace: "d", signal: stop.signal },
      )) {
        seen.push(`${e.type} ${e.object.metadata.name}`);
        stop.abort();
      }
      assert.deepEqual(seen, ["watch", "ADDED a"]);
    } finally {
      await env.stop();
    }
  });

  it("crashAfter: the crashing call reaches the API and fails; nothing after does", async () => {
    const { client, reached } = fakeClient();
    const {
      client: crashing,
      crashed,
      refused,
    } = crashAfter(client, (c) => isWrite(c, "ConfigMap"));
    let down = false;
    void crashed.then(() => {
      down = true;
    });
    await crashing.request("GET", "/api");
    assert.equal(down, false);
    assert.equal(refused(), 0);
    await assert.rejects(crashing.create(CM), CrashError);
    await crashed;
    assert.equal(refused(), 1, "the crashing call's result is lost");
    await assert.rejects(crashing.create({ ...CM, metadata: { name: "later" } }), CrashError);
    await assert.rejects(drain(crashing.watch({ apiVersion: "v1", kind: "ConfigMap" }, {})));
    assert.equal(refused(), 3, "and every call after it is refused");
    assert.deepEqual(reached, ["GET /api", "create a", "watch called"]);
  });

  it("conflictBefore: interferes before the first `times` matches and counts their 409s", async () => {
    const { client } = fakeClient(new Set(["a"]));
    const nths: number[] = [];
    const { client: raced, seen } = conflictBefore(
      client,
      (c) => isWrite(c, "ConfigMap", "create") || isRequest(c, "PUT", "/finalize"),
      async (_c, nth) => void nths.push(nth),
      2,
    );
    await assert.rejects(raced.create(CM));
    await raced.request("PUT", "/api/v1/namespaces/x/finalize?dryRun=All");
    await assert.rejects(raced.create(CM));
    await raced.request("GET", "/api");
    assert.deepEqual(nths, [1, 2]);
    assert.deepEqual(seen, { interfered: 2, conflicts: 3 });
  });

  it("the call predicates", () => {
    const calls: [Call, string, boolean, boolean][] = [
      [{ method: "create", args: [CM] }, "ConfigMap", true, false],
      [{ method: "updateStatus", args: [CM] }, "ConfigMap", true, false],
      [{ method: "get", args: [CM] }, "ConfigMap", false, false],
      [{ method: "watch", args: [{ kind: "ConfigMap" }] }, "ConfigMap", false, false],
      [{ method: "request", args: ["PUT", "/x/finalize?a=b"] }, "PUT /x/finalize?a=b", false, true],
    ];
    for (const [call, target, write, finalize] of calls) {
      assert.equal(callTarget(call), target);
      assert.equal(isWrite(call, "ConfigMap"), write, `${call.method} is a write`);
      assert.equal(isRequest(call, "PUT", "/finalize"), finalize);
    }
    assert.equal(isWrite({ method: "create", args: [CM] }, "ConfigMap", "update"), false);
  });

  it("runManager: returns what register built, and stopping twice is one stop", async () => {
    const { client } = fakeClient();
    const run = await runManager(client, () => "handles");
    assert.equal(run.handles, "handles");
    assert.ok(run.manager.healthz());
    await Promise.all([run.stop(), run.stop()]);
    await run.stop();
    assert.equal(run.manager.healthz(), false);
  });
});
