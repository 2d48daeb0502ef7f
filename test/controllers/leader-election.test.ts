/**
 * Leader election of two Managers on one envtest apiserver, on a FakeClock:
 * only the holder of the Lease runs its controllers; when it stops (without
 * releasing), the other takes over once the lease has expired, not before,
 * and counts one transition.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { FakeClock, type Manager } from "../../src/runtime/index.js";
import {
  callTarget,
  intercept,
  type ManagerRun,
  runManager,
  useEnv,
} from "../support/controller-run.js";
import { CONFIG_MAP, configMap, getOrGone } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";

const TIMING = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

describe("Manager leader election on a fake clock", () => {
  const env = useEnv();
  const managers: ManagerRun<unknown>[] = [];
  // Before the env stops (after the tests): every candidate, leader or not.
  afterEach(async () => {
    for (const m of managers.splice(0)) await m.stop();
  });

  it("runs controllers only on the leader; the other takes over after the lease expires", async () => {
    const clock = new FakeClock();
    const seen: Record<string, number> = { a: 0, b: 0 };
    const candidate = async (identity: string) => {
      const register = (m: Manager) =>
        m
          .controller(`cm-${identity}`)
          .for(CONFIG_MAP)
          .complete({ reconcile: async () => void seen[identity]!++ });
      const m = await runManager(env.client, register, {
        leaderElection: { namespace: "kube-system", name: "lock", identity, clock, ...TIMING },
      });
      managers.push(m);
      return m;
    };
    const lease = () =>
      getOrGone<KubeObject & { spec?: { holderIdentity?: string; leaseTransitions?: number } }>(
        env.client,
        {
          apiVersion: "coordination.k8s.io/v1",
          kind: "Lease",
          name: "lock",
          namespace: "kube-system",
        },
      );
    const a = await candidate("a");
    await waitFor("a leads", async () => (await lease())?.spec?.holderIdentity === "a");
    await candidate("b");
    await env.client.create(configMap("default", "x"));
    await waitFor("a reconciled", () => seen.a! > 0);
    assert.equal(seen.b, 0, "b does not lead");
    await a.stop();
    clock.advance(TIMING.retryPeriodMs);
    assert.equal((await lease())?.spec?.holderIdentity, "a", "not expired yet");
    for (let t = 0; t < 10 && (await lease())?.spec?.holderIdentity !== "b"; t++) {
      clock.advance(TIMING.retryPeriodMs);
      await new Promise((r) => setImmediate(r));
      await waitFor("b parked", () => clock.pending > 0);
    }
    await waitFor("b leads", async () => (await lease())?.spec?.holderIdentity === "b");
    assert.equal((await lease())?.spec?.leaseTransitions, 1);
    await waitFor("b reconciled", () => seen.b! > 0);
  });

  it("leads with nothing to lead and stops cleanly; a term that ends while it runs is reported lost", async () => {
    const clock = new FakeClock();
    let unreachable = false;
    const client = intercept(env.client, {
      before(call) {
        if (unreachable && callTarget(call) === "Lease") throw new Error("connect ECONNREFUSED");
      },
    });
    const quiet = await runManager(client, () => undefined, {
      leaderElection: { namespace: "kube-system", name: "idle", identity: "q", clock, ...TIMING },
    });
    await waitFor("q leads", () => quiet.manager.isLeader());
    await quiet.stop();
    const lost = await runManager(client, () => undefined, {
      leaderElection: { namespace: "kube-system", name: "idle2", identity: "l", clock, ...TIMING },
    });
    await waitFor("l leads", () => lost.manager.isLeader());
    unreachable = true;
    for (let t = 0; t < 10 && lost.manager.isLeader(); t++) {
      await waitFor("l parked", () => clock.pending > 0);
      clock.advance(TIMING.retryPeriodMs);
      await new Promise((r) => setImmediate(r));
    }
    await assert.rejects(lost.stop(), /leader election lost/);
  });
});
