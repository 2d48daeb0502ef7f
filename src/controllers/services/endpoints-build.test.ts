import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { desiredEndpoints, resolveTargetPort, sliceName } from "./endpoints-build.js";
import type { PodView, Service } from "./types.js";

function service(spec: Service["spec"], name = "web"): Service {
  return { apiVersion: "v1", kind: "Service", metadata: { name, namespace: "ns" }, spec };
}

function pod(
  name: string,
  ip: string | undefined,
  opts: {
    ready?: boolean;
    port?: number;
    phase?: string;
    deleting?: boolean;
    host?: [string, string];
  } = {},
): PodView {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: "ns",
      uid: `uid-${name}`,
      ...(opts.deleting ? { deletionTimestamp: "2024-01-01T00:00:00Z" } : {}),
    },
    spec: {
      nodeName: "n1",
      containers: [{ ports: [{ name: "http", containerPort: opts.port ?? 8080 }] }],
      ...(opts.host ? { hostname: opts.host[0], subdomain: opts.host[1] } : {}),
    },
    status: {
      phase: opts.phase ?? "Running",
      ...(ip ? { podIP: ip } : {}),
      conditions: [{ type: "Ready", status: opts.ready === false ? "False" : "True" }],
    },
  };
}

const httpPort = { name: "http", port: 80, targetPort: "http" };

describe("desiredEndpoints", () => {
  it("resolves named and numbered target ports per pod", () => {
    const p = pod("a", "127.1.0.1", { port: 9000 });
    assert.equal(resolveTargetPort(p, { port: 80, targetPort: "http" }), 9000);
    assert.equal(resolveTargetPort(p, { port: 80, targetPort: 7000 }), 7000);
    assert.equal(resolveTargetPort(p, { port: 80 }), 80);
    assert.equal(resolveTargetPort(p, { port: 80, targetPort: "grpc" }), undefined);
    assert.equal(
      resolveTargetPort(p, { port: 80, targetPort: "http", protocol: "UDP" }),
      undefined,
    );
  });

  it("splits ready from not-ready and groups pods by resolved ports", () => {
    const d = desiredEndpoints(service({ ports: [httpPort], selector: { app: "web" } }), [
      pod("b", "127.1.0.2", { ready: false }),
      pod("a", "127.1.0.10"),
      pod("c", "127.1.0.3", { port: 9090 }),
      pod("nip", undefined),
      pod("done", "127.1.0.4", { phase: "Succeeded" }),
    ]);
    assert.equal(d.subsets.length, 2);
    const s8080 = d.subsets.find((s) => s.ports?.[0]?.port === 8080)!;
    assert.deepEqual(s8080.addresses, [
      {
        ip: "127.1.0.10",
        nodeName: "n1",
        targetRef: { kind: "Pod", namespace: "ns", name: "a", uid: "uid-a" },
      },
    ]);
    assert.deepEqual(
      s8080.notReadyAddresses?.map((a) => a.ip),
      ["127.1.0.2"],
    );
    assert.deepEqual(s8080.ports, [{ name: "http", port: 8080, protocol: "TCP" }]);
    assert.equal(d.slices.length, 2);
    const slice = d.slices.find((s) => s.ports[0]?.port === 8080)!;
    assert.equal(slice.name, sliceName("web", slice.ports));
    assert.deepEqual(
      slice.endpoints.map((e) => [e.addresses[0], e.conditions.ready, e.conditions.serving]),
      [
        ["127.1.0.2", false, false],
        ["127.1.0.10", true, true],
      ],
    );
  });

  it("keeps terminating pods out of Endpoints but in slices", () => {
    const d = desiredEndpoints(service({ ports: [httpPort] }), [
      pod("a", "127.1.0.1", { deleting: true }),
    ]);
    assert.deepEqual(d.subsets, []);
    assert.deepEqual(d.slices[0]!.endpoints[0]!.conditions, {
      ready: false,
      serving: true,
      terminating: true,
    });
  });

  it("publishes not-ready pods when asked", () => {
    const d = desiredEndpoints(service({ ports: [httpPort], publishNotReadyAddresses: true }), [
      pod("a", "127.1.0.1", { ready: false }),
    ]);
    assert.deepEqual(
      d.subsets[0]!.addresses?.map((a) => a.ip),
      ["127.1.0.1"],
    );
    assert.equal(d.subsets[0]!.notReadyAddresses, undefined);
    assert.equal(d.slices[0]!.endpoints[0]!.conditions.ready, true);
  });

  it("serves headless Services without ports, with hostnames of their subdomain", () => {
    const d = desiredEndpoints(service({ clusterIP: "None" }, "db"), [
      pod("db-0", "127.1.0.1", { host: ["db-0", "db"] }),
      pod("x", "127.1.0.2", { host: ["x", "elsewhere"] }),
    ]);
    assert.equal(d.subsets.length, 1);
    assert.equal(d.subsets[0]!.ports, undefined);
    assert.deepEqual(
      d.subsets[0]!.addresses?.map((a) => a.hostname),
      ["db-0", undefined],
    );
    assert.deepEqual(d.slices[0]!.ports, []);
    assert.equal(d.slices[0]!.endpoints[0]!.hostname, "db-0");
  });

  it("keeps one empty slice when nothing is selected", () => {
    const d = desiredEndpoints(service({ ports: [httpPort] }), []);
    assert.deepEqual(d.subsets, []);
    assert.deepEqual(d.slices, [{ name: sliceName("web", []), ports: [], endpoints: [] }]);
    assert.match(d.slices[0]!.name, /^web-[0-9a-f]{5}$/);
  });

  it("orders addresses numerically", () => {
    const d = desiredEndpoints(service({ ports: [{ port: 80 }] }), [
      pod("a", "127.1.0.10"),
      pod("b", "127.1.0.9"),
    ]);
    assert.deepEqual(
      d.subsets[0]!.addresses?.map((a) => a.ip),
      ["127.1.0.9", "127.1.0.10"],
    );
  });
});
