/**
 * The Manager's reconcile loop against a real in-process apiserver: the
 * deadline of one reconcile, back-off after errors, TerminalError, requeue
 * results, errors a test must see (an AssertionError thrown in a reconcile),
 * and stop ending every watch and worker.
 */
import assert, { AssertionError } from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import {
  DeadlineExceededError,
  type ManagerOptions,
  type ReconcileContext,
  type Request,
  TerminalError,
} from "../../src/runtime/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";

const CONFIG_MAP = { apiVersion: "v1", kind: "ConfigMap" };

interface Failure {
  controller: string;
  req: Request;
  err: unknown;
  retry: boolean;
}

/** Resolves as `p` does, or rejects once `ms` pass first. */
async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("Manager reconcile loop", () => {
  let env: Env | undefined;
  afterEach(() => env?.stop());

  /** An env whose Manager reports failed reconciles into `failures`. */
  async function start(opts: ManagerOptions = {}) {
    const failures: Failure[] = [];
    env = await startEnv({
      manager: {
        ...opts,
        onReconcileError: (controller, req, err, retry) =>
          failures.push({ controller, req, err, retry }),
      },
    });
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "t" } });
    return { env, failures };
  }

  const configMap = (name: string): KubeObject => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: "t" },
  });

  it("aborts a reconcile at its deadline and retries it with back-off", async () => {
    const { env, failures } = await start({ backoff: { baseMs: 50, maxMs: 1000 } });
    const attempts: number[] = [];
    env.manager
      .controller("slow")
      .for(CONFIG_MAP)
      .deadline(100)
      .complete({
        reconcile: (_req, ctx: ReconcileContext) => {
          attempts.push(performance.now());
          if (attempts.length >= 3) return Promise.resolve();
          return new Promise((_resolve, reject) =>
            ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true }),
          );
        },
      });
    env.startManager();
    await env.client.create(configMap("x"));
    await waitFor("a third attempt", () => (attempts.length === 3 ? true : undefined));
    assert.equal(failures.length, 2);
    for (const f of failures) {
      assert.ok(f.err instanceof DeadlineExceededError, String(f.err));
      assert.match(String(f.err), /slow "t\/x" did not finish within 100 ms/);
      assert.equal(f.retry, true);
      assert.deepEqual(f.req, { namespace: "t", name: "x" });
    }
    // Each retry waits out the deadline, then the next back-off step (50, 100 ms).
    assert.ok(attempts[1]! - attempts[0]! >= 100 + 50 - 5, `${attempts[1]! - attempts[0]!}`);
    assert.ok(attempts[2]! - attempts[1]! >= 100 + 100 - 5, `${attempts[2]! - attempts[1]!}`);
  });

  it("does not retry a TerminalError", async () => {
    const { env, failures } = await start({ backoff: { baseMs: 1, maxMs: 1 } });
    const seen: string[] = [];
    env.manager
      .controller("terminal")
      .for(CONFIG_MAP)
      .complete({
        reconcile: async (req) => {
          const obj = await env.manager.cache.get({ ...CONFIG_MAP, ...req });
          seen.push(`${req.name}@${obj.data ? "changed" : "new"}`);
          if (!obj.data) throw new TerminalError("bad input");
        },
      });
    env.startManager();
    const created = await env.client.create<KubeObject>(configMap("x"));
    await waitFor("the terminal failure", () => (failures.length === 1 ? true : undefined));
    // A retry would come within a millisecond; a change comes after a round trip.
    await env.client.update({ ...created, data: { k: "v" } });
    await waitFor("the change reconciled", () => (seen.includes("x@changed") ? true : undefined));
    assert.deepEqual(seen, ["x@new", "x@changed"]);
    assert.equal(failures[0]!.retry, false);
  });

  it("tells a reconcile how many attempts in a row failed before it", async () => {
    const { env } = await start({ backoff: { baseMs: 1, maxMs: 1 } });
    const retries: number[] = [];
    env.manager
      .controller("counting")
      .for(CONFIG_MAP)
      .complete({
        reconcile: async (_req, ctx: ReconcileContext) => {
          retries.push(ctx.retries);
          // Three failures, a success, then (on the change) one failure and a success.
          if (retries.length <= 3 || retries.length === 5) throw new Error("not yet");
        },
      });
    env.startManager();
    const created = await env.client.create<KubeObject>(configMap("x"));
    await waitFor("the first success", () => (retries.length === 4 ? true : undefined));
    await env.client.update({ ...created, data: { k: "v" } });
    await waitFor("the second success", () => (retries.length === 6 ? true : undefined));
    assert.deepEqual(retries, [0, 1, 2, 3, 0, 1], "a success resets the count");
  });

  it("requeues after requeueAfter and on requeue", async () => {
    const { env } = await start({ backoff: { baseMs: 10, maxMs: 10 } });
    const times: number[] = [];
    env.manager
      .controller("requeue")
      .for(CONFIG_MAP)
      .complete({
        reconcile: async () => {
          times.push(performance.now());
          if (times.length === 1) return { requeueAfter: 150 };
          if (times.length === 2) return { requeue: true };
          return {};
        },
      });
    env.startManager();
    await env.client.create(configMap("x"));
    await waitFor("three looks", () => (times.length === 3 ? true : undefined));
    assert.ok(times[1]! - times[0]! >= 145, `${times[1]! - times[0]!}`);
  });

  it("hands an AssertionError thrown in a reconcile to the test", async () => {
    const { env, failures } = await start({ backoff: { baseMs: 1000, maxMs: 1000 } });
    env.manager
      .controller("asserting")
      .for(CONFIG_MAP)
      .complete({
        reconcile: async () => {
          assert.equal(1, 2, "a broken invariant");
        },
      });
    env.startManager();
    await env.client.create(configMap("x"));
    await waitFor("the failure", () => (failures.length > 0 ? true : undefined));
    assert.ok(failures[0]!.err instanceof AssertionError);
    assert.match(String(failures[0]!.err), /a broken invariant/);
  });

  it("stops every watch and worker when stopped", async () => {
    // A deadline far away: only the stop can end the blocked reconcile.
    const { env } = await start({ reconcileDeadlineMs: 600_000 });
    let inFlight: AbortSignal | undefined;
    env.manager
      .controller("blocked")
      .for(CONFIG_MAP)
      .complete({
        reconcile: (_req, ctx) =>
          new Promise((resolve) => {
            inFlight = ctx.signal;
            ctx.signal.addEventListener("abort", () => resolve(), { once: true });
          }),
      });
    let runnableStopped = false;
    env.manager.add({
      start: (signal) =>
        new Promise((resolve) =>
          signal.addEventListener(
            "abort",
            () => {
              runnableStopped = true;
              resolve();
            },
            { once: true },
          ),
        ),
    });
    env.startManager();
    await env.client.create(configMap("x"));
    await waitFor("a reconcile in flight", () => inFlight);
    assert.equal(env.manager.healthz(), true);
    await waitFor("the informer's watch open", () =>
      env.backend.openWatches("/registry/core/configmaps/") === 1 ? true : undefined,
    );
    await within(5000, "the Manager to stop", env.stopManager());
    assert.equal(inFlight?.aborted, true);
    assert.equal(runnableStopped, true);
    assert.equal(env.manager.healthz(), false);
    await waitFor("the server closed the watch", () =>
      env.backend.openWatches("/registry/core/configmaps/") === 0 ? true : undefined,
    );
  });
});
