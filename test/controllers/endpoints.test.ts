/**
 * The endpoints controller on the envtest tier: a Service's Endpoints and
 * EndpointSlices list its ready pods as addresses and its not-ready ones as
 * notReadyAddresses (slices: ready false), resolve a named target port per pod,
 * follow a selector change and a pod's relabelling, go empty (one empty slice)
 * when no pod matches, are removed with the Service, leave a selector-less
 * Service's hand-written Endpoints alone, are put back after someone else
 * edits them, and a restarted Manager catches up with changes made while down.
 */
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { EndpointsController } from "../../src/controllers/services/index.js";
import { useEnv } from "../support/controller-run.js";
import {
  createNamespace,
  getOrGone,
  POD,
  waitForObject,
  waitGone,
} from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";

interface Subset {
  addresses?: { ip: string; targetRef?: { name: string } }[];
  notReadyAddresses?: { ip: string }[];
  ports?: { name?: string; port: number }[];
}
interface Endpoints extends KubeObject {
  subsets?: Subset[];
}
interface Slice extends KubeObject {
  endpoints: { addresses: string[]; conditions?: { ready?: boolean } }[];
  ports: { name?: string; port?: number }[];
}

const SVC = { apiVersion: "v1", kind: "Service" };

describe("endpoints controller", () => {
  const env = useEnv();
  let n = 0;
  let ns: string;
  const start = () => env.start((m) => new EndpointsController(env.client).register(m));

  /** A pod with `labels`, an IP, Ready as given, and a container port named http. */
  async function pod(
    name: string,
    ip: string,
    ready: boolean,
    labels = { app: "web" },
    port = 8080,
  ) {
    const created = await env.client.create({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: ns, labels },
      spec: {
        containers: [
          { name: "c", image: "busybox", ports: [{ name: "http", containerPort: port }] },
        ],
      },
    });
    return env.client.updateStatus({
      ...created,
      status: {
        phase: "Running",
        podIP: ip,
        podIPs: [{ ip }],
        conditions: [{ type: "Ready", status: ready ? "True" : "False" }],
      },
    });
  }
  const service = (
    name: string,
    selector?: Record<string, string>,
    targetPort: number | string = "http",
  ) =>
    env.client.create({
      ...SVC,
      metadata: { name, namespace: ns },
      spec: { ...(selector ? { selector } : {}), ports: [{ name: "web", port: 80, targetPort }] },
    });
  const endpoints = (name: string) =>
    getOrGone<Endpoints>(env.client, { apiVersion: "v1", kind: "Endpoints", name, namespace: ns });
  const slices = async (svc: string) =>
    (
      await env.client.list<Slice>(
        { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" },
        { namespace: ns, labelSelector: `kubernetes.io/service-name=${svc}` },
      )
    ).items;
  const ips = (e: Endpoints | undefined, which: "addresses" | "notReadyAddresses") =>
    (e?.subsets ?? []).flatMap((s) => (s[which] ?? []).map((a) => a.ip)).sort();
  /** Waits until the Service's Endpoints list exactly `ready` and `notReady`. */
  const endpointsAre = (svc: string, ready: string[], notReady: string[] = []) =>
    waitForObject(
      `${svc} endpoints ${ready} / ${notReady}`,
      () => endpoints(svc),
      (e) =>
        JSON.stringify(ips(e, "addresses")) === JSON.stringify(ready) &&
        JSON.stringify(ips(e, "notReadyAddresses")) === JSON.stringify(notReady),
    );

  // Each test: a Manager of its own, and a fresh namespace.
  beforeEach(async () => {
    await start();
    ns = `ep${++n}`;
    await createNamespace(env.client, ns);
  });

  it("lists ready and not-ready pods, in Endpoints and in slices", async () => {
    await pod("a", "10.0.0.1", true);
    await pod("b", "10.0.0.2", false);
    await pod("other", "10.0.0.9", true, { app: "db" });
    await service("web", { app: "web" });
    const ep = await endpointsAre("web", ["10.0.0.1"], ["10.0.0.2"]);
    assert.deepEqual(ep.subsets?.[0]?.ports, [{ name: "web", port: 8080, protocol: "TCP" }]);
    assert.equal(ep.metadata.ownerReferences?.[0]?.kind, "Service");
    // The slice is written after the Endpoints.
    const [slice, ...more] = await waitFor("web's slice with both pods", async () => {
      const s = await slices("web");
      return s[0]?.endpoints.length === 2 ? s : undefined;
    });
    assert.equal(more.length, 0);
    const ready = Object.fromEntries(
      slice!.endpoints.map((e) => [e.addresses[0], e.conditions?.ready]),
    );
    assert.deepEqual(ready, { "10.0.0.1": true, "10.0.0.2": false });
    assert.equal(
      slice!.metadata.labels?.["endpointslice.kubernetes.io/managed-by"],
      "endpointslice-controller.k8s.io",
    );
  });

  it("resolves a named target port per pod: one subset per port number", async () => {
    await pod("a", "10.0.1.1", true, { app: "web" }, 8080);
    await pod("b", "10.0.1.2", true, { app: "web" }, 9090);
    await service("web", { app: "web" });
    const ep = await endpointsAre("web", ["10.0.1.1", "10.0.1.2"]);
    const byPort = Object.fromEntries(
      (ep.subsets ?? []).map((s) => [s.ports?.[0]?.port, (s.addresses ?? []).map((a) => a.ip)]),
    );
    assert.deepEqual(byPort, { 8080: ["10.0.1.1"], 9090: ["10.0.1.2"] });
    await waitFor("two slices, one per port", async () => (await slices("web")).length === 2);
  });

  it("follows readiness, relabelling and a selector change; empty when nothing matches", async () => {
    const a = await pod("a", "10.0.2.1", false);
    await pod("b", "10.0.2.2", true, { app: "api" });
    await service("web", { app: "web" });
    await endpointsAre("web", [], ["10.0.2.1"]);
    await env.client.updateStatus({
      ...a,
      status: { ...a.status, conditions: [{ type: "Ready", status: "True" }] },
    });
    await endpointsAre("web", ["10.0.2.1"]);
    const fresh = await env.client.get({ ...POD, name: "a", namespace: ns });
    await env.client.update({ ...fresh, metadata: { ...fresh.metadata, labels: { app: "gone" } } });
    await endpointsAre("web", []);
    await waitFor("one empty slice", async () => {
      const s = await slices("web");
      return s.length === 1 && s[0]!.endpoints.length === 0;
    });
    const svc = await env.client.get({ ...SVC, name: "web", namespace: ns });
    await env.client.update({
      ...svc,
      spec: { ...(svc.spec as object), selector: { app: "api" } },
    });
    await endpointsAre("web", ["10.0.2.2"]);
  });

  it("removes what it made with the Service, and never touches a selector-less Service's", async () => {
    await pod("a", "10.0.3.1", true);
    await service("web", { app: "web" });
    await service("manual");
    await env.client.create({
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "manual", namespace: ns },
      subsets: [{ addresses: [{ ip: "192.0.2.7" }], ports: [{ port: 80 }] }],
    });
    await endpointsAre("web", ["10.0.3.1"]);
    await env.client.delete({ ...SVC, name: "web", namespace: ns });
    await waitGone("web's Endpoints", () => endpoints("web"));
    await waitFor("web's slices gone", async () => (await slices("web")).length === 0);
    assert.deepEqual(ips(await endpoints("manual"), "addresses"), ["192.0.2.7"]);
    assert.equal((await slices("manual")).length, 0);
  });

  it("puts back Endpoints someone else edited", async () => {
    await pod("a", "10.0.4.1", true);
    await service("web", { app: "web" });
    const ep = await endpointsAre("web", ["10.0.4.1"]);
    await env.client.update({
      ...ep,
      subsets: [{ addresses: [{ ip: "203.0.113.1" }], ports: [{ port: 1 }] }],
    });
    await endpointsAre("web", ["10.0.4.1"]);
  });

  it("a restarted Manager catches up with pods and Services changed while it was down", async () => {
    await pod("a", "10.0.5.1", true);
    await service("web", { app: "web" });
    await endpointsAre("web", ["10.0.5.1"]);
    await env.run?.stop();
    await pod("b", "10.0.5.2", true);
    await env.client.delete(
      { apiVersion: "v1", kind: "Pod", name: "a", namespace: ns },
      { gracePeriodSeconds: 0 },
    );
    await service("late", { app: "web" });
    await start();
    await endpointsAre("web", ["10.0.5.2"]);
    await endpointsAre("late", ["10.0.5.2"]);
  });
});
