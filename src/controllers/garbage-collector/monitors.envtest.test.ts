/**
 * The garbage collector's monitors on the envtest apiserver, on a Manager
 * FakeClock: the discovery resync (which picks up kinds no CRD event told it
 * of) waits on the Manager's clock, so it runs again exactly when
 * `clock.advance` reaches its period.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { intercept, isRequest, useEnv } from "../../../test/support/controller-run.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import { FakeClock } from "../../runtime/index.js";
import { GarbageCollector } from "./garbage-collector.js";

const RESYNC_MS = 30_000;

describe("garbage collector monitors on the Manager's clock", () => {
  const env = useEnv();

  it("runs discovery again exactly when the clock reaches the resync period", async () => {
    let discoveries = 0;
    const client = intercept(env.client, {
      before: (call) => {
        if (isRequest(call, "GET", "/apis")) discoveries++;
      },
    });
    const clock = new FakeClock();
    const period = clock.now() + RESYNC_MS;
    await env.start(
      (m) => new GarbageCollector(client, { resyncDiscoveryMs: RESYNC_MS }).register(m),
      { client, clock, reconcileDeadlineMs: 3_600_000 },
    );
    // The first pass done, the monitors sleep on the clock until the period ends.
    await waitFor("the discovery resync timer", () => clock.nextDue() === period);
    const first = discoveries;
    assert.ok(first >= 1, "discovered once at start");
    clock.advanceTo(period - 1);
    assert.equal(discoveries, first, "not again before the period");
    clock.advanceTo(period);
    await waitFor("discovery again at the period", () => discoveries > first);
    await waitFor("the next period's timer", () => clock.nextDue() === period + RESYNC_MS);
  });
});
