/**
 * Leader election on a Lease against an in-process apiserver, on a FakeClock so
 * that no timing depends on the machine's load: a free lease is taken and
 * renewed each retry period, a leader whose renewals fail steps down exactly
 * when the renew deadline has passed, a live holder is never displaced, and
 * another candidate takes over only once the lease has expired (a transition
 * counted). Also the /metrics endpoint.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { FakeClock, LeaderElector } from "../../src/runtime/index.js";
import { waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const TIMING = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

interface LeaseSpec {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaseTransitions: number;
}

const micro = (ms: number) => new Date(ms).toISOString().replace(/Z$/, "000Z");

describe("LeaderElector on a fake clock", () => {
  let s: InProcessServer;
  let client: HttpClient;
  let clock: FakeClock;
  let lockName: string;
  let n = 0;
  /** While true, every call of the candidates' client fails (an unreachable apiserver). */
  let unreachable = false;
  const campaigns: { stop: AbortController; done: Promise<void> }[] = [];

  before(async () => {
    s = await startInProcess();
    client = createHttpClient({ server: s.url });
  });
  after(async () => {
    for (const c of campaigns) c.stop.abort();
    await Promise.all(campaigns.map((c) => c.done));
    client?.close();
    await s?.stop();
  });
  beforeEach(() => {
    clock = new FakeClock();
    lockName = `lock-${++n}`;
    unreachable = false;
  });

  const flaky = new Proxy({} as HttpClient, {
    get(_t, prop: keyof HttpClient) {
      const real = client[prop];
      if (typeof real !== "function") return real;
      return (...args: unknown[]) =>
        unreachable
          ? Promise.reject(new Error("connect ECONNREFUSED"))
          : (real as (...a: unknown[]) => unknown).apply(client, args);
    },
  });

  /** Campaigns as `identity`; `leading()` is true while its last term has not ended. */
  function candidate(identity: string) {
    const elector = new LeaderElector(flaky, {
      namespace: "kube-system",
      name: lockName,
      identity,
      clock,
      ...TIMING,
    });
    const terms: AbortSignal[] = [];
    const stop = new AbortController();
    const done = elector.run(stop.signal, async (term) => {
      terms.push(term);
      await new Promise((r) => term.addEventListener("abort", r, { once: true }));
    });
    campaigns.push({ stop, done });
    return {
      terms,
      leading: () => terms.length > 0 && !terms.at(-1)!.aborted,
      stop: async () => {
        stop.abort();
        await done;
      },
    };
  }

  /** Resolves once `count` candidates wait on the clock, i.e. each finished its step. */
  const parked = (count: number) =>
    waitFor(`${count} candidate(s) waiting on the clock`, () => clock.pending === count, 10_000);

  const lease = async () =>
    (
      await client.get({
        apiVersion: "coordination.k8s.io/v1",
        kind: "Lease",
        name: lockName,
        namespace: "kube-system",
      })
    ).spec as LeaseSpec;

  it("takes a free lease and renews it every retry period", async () => {
    const t0 = clock.now();
    const a = candidate("a");
    await parked(1);
    assert.equal(a.leading(), true);
    assert.deepEqual(await lease(), {
      holderIdentity: "a",
      leaseDurationSeconds: 15,
      acquireTime: micro(t0),
      renewTime: micro(t0),
      leaseTransitions: 0,
    });
    for (let step = 1; step <= 3; step++) {
      clock.advance(TIMING.retryPeriodMs);
      await parked(1);
      const spec = await lease();
      assert.equal(spec.renewTime, micro(t0 + step * TIMING.retryPeriodMs));
      assert.equal(spec.acquireTime, micro(t0), "renewing is not acquiring");
    }
    assert.equal(a.terms.length, 1);
    await a.stop();
  });

  it("steps down when renewals fail for longer than the renew deadline, not before", async () => {
    const a = candidate("a");
    await parked(1);
    unreachable = true;
    let failingFor = 0;
    while (failingFor <= TIMING.renewDeadlineMs) {
      assert.equal(a.leading(), true, `still leading after ${failingFor} ms of failed renewals`);
      clock.advance(TIMING.retryPeriodMs);
      failingFor += TIMING.retryPeriodMs;
      await parked(1);
    }
    assert.equal(a.leading(), false, `stepped down after ${failingFor} ms`);
    assert.equal(failingFor, 12_000);
    // Back in reach, it campaigns again and, still the holder, leads a second term.
    unreachable = false;
    clock.advance(TIMING.retryPeriodMs);
    await parked(1);
    assert.equal(a.terms.length, 2);
    assert.equal(a.leading(), true);
    assert.equal((await lease()).leaseTransitions, 0, "the same holder is no transition");
    await a.stop();
  });

  it("never displaces a live holder; takes over once the lease has expired", async () => {
    const a = candidate("a");
    await parked(1);
    const b = candidate("b");
    await parked(2);
    for (let i = 0; i < 10; i++) {
      clock.advance(TIMING.retryPeriodMs);
      await parked(2);
    }
    assert.equal(a.leading(), true);
    assert.equal(b.terms.length, 0, "b never led while a renewed");
    // a dies without releasing the lease: its last renewal stands until it expires.
    await a.stop();
    await parked(1);
    const renewed = Date.parse((await lease()).renewTime);
    let waited = 0;
    while (!b.leading()) {
      assert.ok(waited <= TIMING.leaseDurationMs, `b took over ${waited} ms after a's renewal`);
      clock.advance(TIMING.retryPeriodMs);
      waited += TIMING.retryPeriodMs;
      await parked(1);
    }
    assert.equal(waited, 16_000, "the first try after the 15 s lease expired");
    const spec = await lease();
    assert.equal(spec.holderIdentity, "b");
    assert.equal(spec.leaseTransitions, 1);
    assert.equal(spec.acquireTime, micro(renewed + waited));
    await b.stop();
  });
});

describe("/metrics", () => {
  it("serves apiserver and controller-runtime metrics in Prometheus format", async () => {
    const s = await startInProcess();
    const client = createHttpClient({ server: s.url });
    try {
      await client.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "default" });
      const res = await client.request("GET", "/metrics");
      assert.equal(res.status, 200);
      assert.match(
        res.body,
        /apiserver_request_total\{verb="LIST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="200"\} \d+/,
      );
      assert.match(res.body, /# TYPE controller_runtime_reconcile_total counter/);
      assert.match(res.body, /# TYPE workqueue_depth gauge/);
    } finally {
      client.close();
      await s.stop();
    }
  });
});
