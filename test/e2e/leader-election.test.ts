/**
 * Leader election on a Lease against an in-process apiserver (one of two
 * candidates leads; when it stops, the other takes over with a transition
 * counted; a live holder is never displaced), and the /metrics endpoint.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { LeaderElector } from "../../src/runtime/index.js";
import { waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

describe("LeaderElector", () => {
  let s: InProcessServer;
  let client: HttpClient;
  before(async () => {
    s = await startInProcess();
    client = createHttpClient({ server: s.url });
  });
  after(async () => {
    client?.close();
    await s?.stop();
  });

  it("elects one leader and hands over when it stops", async () => {
    const timing = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 100 };
    const a = new LeaderElector(client, {
      namespace: "kube-system",
      name: "test-lock",
      identity: "a",
      ...timing,
    });
    const b = new LeaderElector(client, {
      namespace: "kube-system",
      name: "test-lock",
      identity: "b",
      ...timing,
    });
    const leading = new Set<string>();
    const campaign = (id: string, elector: LeaderElector, stop: AbortController) =>
      elector.run(stop.signal, async (signal) => {
        leading.add(id);
        await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
        leading.delete(id);
      });
    const stopA = new AbortController();
    const runA = campaign("a", a, stopA);
    await waitFor("a leads", () => leading.has("a"));
    const stopB = new AbortController();
    const runB = campaign("b", b, stopB);
    try {
      assert.equal(await b.tryAcquireOrRenew(), false, "a live holder is not displaced");
      assert.deepEqual([...leading], ["a"]);
      stopA.abort();
      await runA;
      await waitFor("b takes over", () => leading.has("b"), 10_000);
      const lease = await client.get({
        apiVersion: "coordination.k8s.io/v1",
        kind: "Lease",
        name: "test-lock",
        namespace: "kube-system",
      });
      const spec = lease.spec as { holderIdentity: string; leaseTransitions: number };
      assert.equal(spec.holderIdentity, "b");
      assert.equal(spec.leaseTransitions, 1);
    } finally {
      stopA.abort();
      stopB.abort();
      await Promise.all([runA, runB]);
    }
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
        /apiserver_request_total\{verb="list",group="",version="v1",resource="configmaps",subresource="",code="200"\} \d+/,
      );
      assert.match(res.body, /# TYPE controller_runtime_reconcile_total counter/);
      assert.match(res.body, /# TYPE workqueue_depth gauge/);
    } finally {
      client.close();
      await s.stop();
    }
  });
});
