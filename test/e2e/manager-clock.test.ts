/**
 * A Manager on a FakeClock against the real in-process apiserver: back-off
 * after failed reconciles, a reconcile's deadline and requeueAfter all wait on
 * `clock.advance()` alone, so the schedule is asserted to the millisecond and
 * no test waits on the machine's clock (only on conditions, with deadlines).
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import {
  DeadlineExceededError,
  FakeClock,
  type ReconcileContext,
  type ReconcileResult,
} from "../../src/runtime/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";

const CONFIG_MAP = { apiVersion: "v1", kind: "ConfigMap" };
const START = Date.parse("2030-01-01T00:00:00Z");

/** Lets callbacks already queued run; no time passes on the FakeClock. */
const settle = () => new Promise<void>((r) => setImmediate(r));

describe("Manager on a FakeClock", () => {
  let env: Env | undefined;
  afterEach(() => env?.stop());

  /**
   * An env whose Manager runs on `clock`, with one ConfigMap controller whose
   * reconcile is `reconcile`; the calls' clock times are in `at`, failures in `errors`.
   */
  async function start(
    reconcile: (n: number, ctx: ReconcileContext) => Promise<ReconcileResult | undefined>,
    deadlineMs = 60_000,
  ) {
    const clock = new FakeClock(START);
    const at: number[] = [];
    const errors: unknown[] = [];
    env = await startEnv({
      manager: {
        clock,
        backoff: { baseMs: 1_000, maxMs: 4_000 },
        onReconcileError: (_c, _req, err) => errors.push(err),
      },
    });
    env.manager
      .controller("clocked")
      .for(CONFIG_MAP)
      .deadline(deadlineMs)
      .complete({
        reconcile: (_req, ctx) => {
          at.push(clock.now() - START);
          return reconcile(at.length, ctx);
        },
      });
    env.startManager();
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "t" } });
    await env.client.create({ ...CONFIG_MAP, metadata: { name: "x", namespace: "t" } });
    await waitFor("the first reconcile", () => at.length === 1);
    return { clock, at, errors };
  }

  /**
   * Waits until the earliest timer is `due` (ms after START), checks that one
   * ms short of it nothing fires, then moves the clock onto it.
   */
  async function advanceOnto(clock: FakeClock, due: number): Promise<void> {
    await waitFor(`a timer due at +${due} ms`, () => clock.nextDue() === START + due);
    clock.advanceTo(START + due - 1);
    assert.equal(clock.nextDue(), START + due, "not fired early");
    clock.advanceTo(START + due);
  }

  it("retries a failing reconcile with back-off that doubles to its cap, on advance alone", async () => {
    const { clock, at, errors } = await start(async (n) => {
      if (n <= 5) throw new Error(`attempt ${n} fails`);
      return undefined;
    });
    // Back-off 1 s, 2 s, 4 s, then the 4 s cap: attempts at 0, 1, 3, 7, 11, 15 s.
    for (const due of [1_000, 3_000, 7_000, 11_000, 15_000]) {
      await advanceOnto(clock, due);
      await waitFor(`the attempt at +${due} ms`, () => at.at(-1) === due);
    }
    assert.deepEqual(at, [0, 1_000, 3_000, 7_000, 11_000, 15_000]);
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      [1, 2, 3, 4, 5].map((n) => `attempt ${n} fails`),
    );
    // After the success nothing waits: no back-off, and the deadline was cancelled.
    await waitFor("no timer left", () => clock.pending === 0);
    clock.advance(600_000);
    await settle();
    assert.equal(at.length, 6, "a success is not retried");
  });

  it("aborts a reconcile at its deadline on the clock, then backs off", async () => {
    const { clock, at, errors } = await start(
      (n, ctx) =>
        n === 1
          ? new Promise((_resolve, reject) =>
              ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), {
                once: true,
              }),
            )
          : Promise.resolve(undefined),
      5_000,
    );
    await advanceOnto(clock, 5_000);
    await waitFor("the deadline reported", () => errors.length === 1);
    assert.ok(errors[0] instanceof DeadlineExceededError, String(errors[0]));
    assert.match(String(errors[0]), /clocked "t\/x" did not finish within 5000 ms/);
    await advanceOnto(clock, 6_000);
    await waitFor("the retry", () => at.length === 2);
    assert.deepEqual(at, [0, 6_000], "retried one back-off step after the deadline");
  });

  it("campaigns on the Manager's clock when the election names none of its own", async () => {
    const clock = new FakeClock(START);
    env = await startEnv({
      manager: {
        clock,
        leaderElection: {
          namespace: "kube-system",
          name: "clocked",
          identity: "a",
          retryPeriodMs: 2_000,
        },
      },
    });
    const manager = env.manager;
    env.startManager();
    const renewTime = async () => {
      const lease = await env!.client.get({
        apiVersion: "coordination.k8s.io/v1",
        kind: "Lease",
        namespace: "kube-system",
        name: "clocked",
      });
      return (lease.spec as { renewTime?: string }).renewTime;
    };
    await waitFor("leading", () => manager.isLeader());
    assert.equal(await renewTime(), "2030-01-01T00:00:00.000000Z", "taken at the clock's time");
    await advanceOnto(clock, 2_000);
    await waitFor("the renewal at +2 s", async () =>
      (await renewTime()) === "2030-01-01T00:00:02.000000Z" ? true : undefined,
    );
  });

  it("looks again after requeueAfter, measured on the clock", async () => {
    const { clock, at } = await start(async (n) => (n < 3 ? { requeueAfter: 30_000 } : undefined));
    await advanceOnto(clock, 30_000);
    await waitFor("the second look", () => at.length === 2);
    await advanceOnto(clock, 60_000);
    await waitFor("the third look", () => at.length === 3);
    await waitFor("no timer left", () => clock.pending === 0);
    assert.deepEqual(at, [0, 30_000, 60_000]);
  });
});
