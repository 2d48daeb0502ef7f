/**
 * The endpoints controller against an in-process apiserver: pods made Ready
 * through the status subresource show up in the Service's Endpoints and
 * EndpointSlice (named target ports resolved per pod, not-ready pods apart,
 * headless Services with hostnames), follow readiness changes, and go with the
 * Service. The resolver answers from the same objects.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { hasCode } from "../../src/api/errors.js";
import type { KubeObject } from "../../src/api/types.js";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import {
  type EndpointSlice,
  type Endpoints,
  EndpointsController,
  ResolveError,
  resolveService,
  SERVICE_NAME_LABEL,
} from "../../src/controllers/services/index.js";
import { waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const NS = "default";

function pod(
  name: string,
  labels: Record<string, string>,
  port: number,
  extra: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: NS, labels },
    spec: {
      containers: [
        { name: "main", image: "sleep", ports: [{ name: "http", containerPort: port }] },
      ],
      ...extra,
    },
  };
}

describe("endpoints controller", () => {
  let s: InProcessServer;
  let client: HttpClient;
  const stop = new AbortController();
  let running: Promise<void>;

  async function setStatus(name: string, ip: string, ready: boolean): Promise<void> {
    const p = await client.get({ apiVersion: "v1", kind: "Pod", name, namespace: NS });
    await client.updateStatus({
      ...p,
      status: {
        ...(p.status as object),
        phase: "Running",
        podIP: ip,
        podIPs: [{ ip }],
        conditions: [{ type: "Ready", status: ready ? "True" : "False" }],
      },
    });
  }

  const endpoints = (name: string) =>
    client
      .get<Endpoints>({ apiVersion: "v1", kind: "Endpoints", name, namespace: NS })
      .catch((e: unknown) => {
        if (hasCode(e, 404)) return undefined;
        throw e;
      });
  const slices = async (name: string) =>
    (
      await client.list<EndpointSlice>(
        { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" },
        {
          namespace: NS,
          labelSelector: `${SERVICE_NAME_LABEL}=${name}`,
        },
      )
    ).items;

  before(async () => {
    s = await startInProcess();
    client = createHttpClient({ server: s.url });
    // One worker: keys are reconciled in the order their events arrive.
    running = new EndpointsController(client, { workers: 1 }).run(stop.signal);
  });
  after(async () => {
    stop.abort();
    await running;
    client?.close();
    await s?.stop();
  });

  it("publishes ready and not-ready pods with their resolved ports", async () => {
    const svc = await client.create<KubeObject>({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "web", namespace: NS, labels: { team: "a" } },
      spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: "http" }] },
    });
    await client.create(pod("web-1", { app: "web" }, 8080));
    await client.create(pod("web-2", { app: "web" }, 8080));
    await client.create(pod("web-3", { app: "web" }, 9090));
    await client.create(pod("stranger", { app: "other" }, 8080));
    await setStatus("web-1", "127.1.0.11", true);
    await setStatus("web-2", "127.1.0.12", false);
    await setStatus("web-3", "127.1.0.13", true);
    await setStatus("stranger", "127.1.0.14", true);

    const ep = await waitFor("Endpoints of web", async () => {
      const e = await endpoints("web");
      return e?.subsets?.length === 2 ? e : undefined;
    });
    assert.deepEqual(ep.metadata.labels, { team: "a" });
    assert.equal(ep.metadata.ownerReferences?.[0]?.uid, svc.metadata.uid);
    const byPort = new Map(ep.subsets!.map((x) => [x.ports?.[0]?.port, x]));
    const s8080 = byPort.get(8080)!;
    assert.deepEqual(
      s8080.addresses?.map((a) => [a.ip, a.targetRef?.name]),
      [["127.1.0.11", "web-1"]],
    );
    assert.deepEqual(
      s8080.notReadyAddresses?.map((a) => a.ip),
      ["127.1.0.12"],
    );
    assert.deepEqual(s8080.ports, [{ name: "http", port: 8080, protocol: "TCP" }]);
    assert.deepEqual(
      byPort.get(9090)!.addresses?.map((a) => a.ip),
      ["127.1.0.13"],
    );

    // Slices are written after Endpoints in the same pass: wait for them too.
    const sl = await waitFor("slices of web", async () => {
      const all = await slices("web");
      const count = all.reduce((n, x) => n + x.endpoints.length, 0);
      return all.length === 2 && count === 3 ? all : undefined;
    });
    for (const x of sl) {
      assert.equal(x.addressType, "IPv4");
      assert.equal(x.metadata.ownerReferences?.[0]?.uid, svc.metadata.uid);
      assert.equal(
        x.metadata.labels?.["endpointslice.kubernetes.io/managed-by"],
        "endpointslice-controller.k8s.io",
      );
    }
    const slice8080 = sl.find((x) => x.ports[0]?.port === 8080)!;
    assert.deepEqual(
      slice8080.endpoints.map((e) => [e.addresses[0], e.conditions.ready]),
      [
        ["127.1.0.11", true],
        ["127.1.0.12", false],
      ],
    );
  });

  it("follows readiness and pod deletion", async () => {
    await setStatus("web-2", "127.1.0.12", true);
    await waitFor("web-2 ready", async () => {
      const e = await endpoints("web");
      const s8080 = e?.subsets?.find((x) => x.ports?.[0]?.port === 8080);
      return s8080?.addresses?.length === 2 && !s8080.notReadyAddresses;
    });
    await client.delete(
      { apiVersion: "v1", kind: "Pod", name: "web-3", namespace: NS },
      { gracePeriodSeconds: 0 },
    );
    await waitFor("web-3 gone", async () => (await endpoints("web"))?.subsets?.length === 1);
    await waitFor("its slice gone", async () => (await slices("web")).length === 1);
  });

  it("serves headless Services and resolves names", async () => {
    await client.create({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "db", namespace: NS },
      spec: { clusterIP: "None", selector: { app: "db" }, publishNotReadyAddresses: true },
    });
    await client.create(pod("db-0", { app: "db" }, 5432, { hostname: "db-0", subdomain: "db" }));
    await client.create(pod("db-1", { app: "db" }, 5432, { hostname: "db-1", subdomain: "db" }));
    await setStatus("db-0", "127.1.0.21", true);
    await setStatus("db-1", "127.1.0.22", false);
    const ep = await waitFor("Endpoints of db", async () => {
      const e = await endpoints("db");
      return e?.subsets?.[0]?.addresses?.length === 2 ? e : undefined;
    });
    assert.equal(ep.metadata.labels?.["service.kubernetes.io/headless"], "");
    assert.deepEqual(
      ep.subsets![0]!.addresses!.map((a) => a.hostname),
      ["db-0", "db-1"],
      "publishNotReadyAddresses lists the not-ready pod too",
    );
    assert.equal(ep.subsets![0]!.ports, undefined);

    const web = await client.get<KubeObject & { spec: { clusterIP: string } }>({
      apiVersion: "v1",
      kind: "Service",
      name: "web",
      namespace: NS,
    });
    assert.deepEqual(await resolveService(client, "web.default.svc"), [web.spec.clusterIP]);
    assert.deepEqual(await resolveService(client, "web.default.svc.cluster.local."), [
      web.spec.clusterIP,
    ]);
    assert.deepEqual(await resolveService(client, "web", { namespace: NS }), [web.spec.clusterIP]);
    assert.deepEqual(await resolveService(client, "db.default"), ["127.1.0.21", "127.1.0.22"]);
    assert.deepEqual(await resolveService(client, "db-1.db.default.svc.cluster.local"), [
      "127.1.0.22",
    ]);
    assert.deepEqual(await resolveService(client, "web-1.web.default.svc"), ["127.1.0.11"]);
    await assert.rejects(resolveService(client, "nope.default.svc"), ResolveError);
    await assert.rejects(resolveService(client, "ghost.db.default.svc"), /no ready pod "ghost"/);
    await assert.rejects(resolveService(client, "a.b.c.d.svc"), /is not a service name/);
  });

  it("removes Endpoints and slices with the Service", async () => {
    await client.delete({ apiVersion: "v1", kind: "Service", name: "web", namespace: NS });
    await waitFor("web's Endpoints gone", async () => (await endpoints("web")) === undefined);
    await waitFor("web's slices gone", async () => (await slices("web")).length === 0);
  });

  it("leaves Endpoints of a selector-less Service alone", async () => {
    await client.create({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "external", namespace: NS },
      spec: { ports: [{ port: 5432 }] },
    });
    await client.create({
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "external", namespace: NS },
      subsets: [{ addresses: [{ ip: "127.9.0.1" }], ports: [{ port: 5432, protocol: "TCP" }] }],
    });
    await client.delete({ apiVersion: "v1", kind: "Service", name: "external", namespace: NS });
    // A later Service's Endpoints prove the one worker has handled the deletion before.
    await client.create({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "later", namespace: NS },
      spec: { selector: { app: "none" }, ports: [{ port: 1 }] },
    });
    await waitFor("later's Endpoints", () => endpoints("later"));
    assert.deepEqual((await endpoints("external"))?.subsets?.[0]?.addresses?.[0]?.ip, "127.9.0.1");
  });
});
