/**
 * The node heartbeat on the envtest apiserver, on a FakeClock: the Lease is
 * renewed with the clock's time, and renewed again exactly when the clock
 * reaches the next renew interval.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Env, startEnv } from "../../test/support/envtest.js";
import { waitFor } from "../../test/support/hearth-process.js";
import { FakeClock } from "../runtime/index.js";
import { heartbeat, LEASE_NAMESPACE, registerNode } from "./node-registration.js";

const RENEW_MS = 10_000;
const LEASE = { apiVersion: "coordination.k8s.io/v1", kind: "Lease" };
/** The Lease's MicroTime of `ms`. */
const micro = (ms: number) => `${new Date(ms).toISOString().slice(0, 23)}000Z`;

describe("node heartbeat on a FakeClock", () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
  });
  after(() => env.stop());

  it("renews the Lease with the clock's time, again exactly each renew interval", async () => {
    const facts = { name: "beating", podCIDR: "10.244.9.0/24", port: 1, token: "t" };
    const node = await registerNode(env.client, facts);
    const clock = new FakeClock();
    const errors: unknown[] = [];
    const stop = new AbortController();
    const done = heartbeat(
      env.client,
      facts,
      node,
      {
        leaseDurationSeconds: 40,
        renewIntervalMs: RENEW_MS,
        statusIntervalMs: 60_000,
        onError: (_m, e) => errors.push(e),
        clock,
      },
      stop.signal,
    );
    try {
      const renewTime = async () =>
        (
          (await env.client
            .get({ ...LEASE, name: "beating", namespace: LEASE_NAMESPACE })
            .catch(() => undefined)) as { spec?: { renewTime?: string } } | undefined
        )?.spec?.renewTime;
      const t0 = clock.now();
      await waitFor("the first renewal", async () => (await renewTime()) === micro(t0));
      await waitFor("the renew interval's timer", () => clock.nextDue() === t0 + RENEW_MS);
      clock.advanceTo(t0 + RENEW_MS - 1);
      assert.equal(await renewTime(), micro(t0), "not renewed before the interval");
      clock.advanceTo(t0 + RENEW_MS);
      await waitFor("the second renewal", async () =>
        (await renewTime()) === micro(t0 + RENEW_MS) ? true : undefined,
      );
      assert.deepEqual(errors, []);
    } finally {
      stop.abort();
      await done;
    }
  });
});
