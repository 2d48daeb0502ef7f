import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { EndpointSliceObject, ServiceObject } from "../nft/types.js";
import { lookup } from "./lookup.js";
import { buildZone, reverseName } from "./zone.js";

const svc = (ns: string, name: string, spec: Record<string, unknown>): ServiceObject =>
  ({ apiVersion: "v1", kind: "Service", metadata: { namespace: ns, name }, spec }) as ServiceObject;

const slice = (
  ns: string,
  service: string,
  endpoints: { ip: string; hostname?: string; ready?: boolean }[],
  ports: { name: string; port: number; protocol?: string }[] = [],
): EndpointSliceObject =>
  ({
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      namespace: ns,
      name: `${service}-abc`,
      labels: { "kubernetes.io/service-name": service },
    },
    addressType: "IPv4",
    endpoints: endpoints.map((e) => ({
      addresses: [e.ip],
      ...(e.hostname ? { hostname: e.hostname } : {}),
      ...(e.ready === undefined ? {} : { conditions: { ready: e.ready } }),
    })),
    ports,
  }) as EndpointSliceObject;

const zone = buildZone(
  "cluster.local",
  [
    svc("default", "web", {
      clusterIP: "10.96.0.20",
      ports: [{ name: "http", port: 80, protocol: "TCP" }, { port: 81 }],
    }),
    svc("shop", "db", { clusterIP: "None" }),
    svc("shop", "empty", { clusterIP: "None" }),
    svc("default", "ext", { type: "ExternalName", externalName: "example.org." }),
    svc("default", "alias", {
      type: "ExternalName",
      externalName: "web.default.svc.cluster.local",
    }),
  ],
  [
    slice(
      "default",
      "web",
      [{ ip: "10.88.0.5" }, { ip: "10.88.0.6", ready: false }],
      [{ name: "http", port: 8080 }],
    ),
    slice(
      "shop",
      "db",
      [
        { ip: "10.88.0.7", hostname: "db-0" },
        { ip: "10.88.0.8" },
        { ip: "10.88.0.9", hostname: "db-2", ready: false },
      ],
      [{ name: "pg", port: 5432 }],
    ),
  ],
);

const answer = (name: string, type: Parameters<typeof lookup>[1]) => {
  const r = lookup(name, type, zone);
  assert.ok(!r.forward, `${name} is the zone's`);
  return r;
};
const data = (name: string, type: Parameters<typeof lookup>[1]) =>
  answer(name, type).answers.map((a) => (a as { data: unknown }).data);

describe("the cluster zone", () => {
  test("a Service with a ClusterIP: A by its FQDN, case and trailing dot ignored", () => {
    assert.deepEqual(data("web.default.svc.cluster.local", "A"), ["10.96.0.20"]);
    assert.deepEqual(data("WEB.Default.svc.cluster.local.", "A"), ["10.96.0.20"]);
    assert.equal(answer("web.default.svc.cluster.local", "A").rcode, "NOERROR");
  });

  test("a headless Service: one A per ready endpoint; hostnames (or dashed addresses) by name", () => {
    assert.deepEqual(data("db.shop.svc.cluster.local", "A"), ["10.88.0.7", "10.88.0.8"]);
    assert.deepEqual(data("db-0.db.shop.svc.cluster.local", "A"), ["10.88.0.7"]);
    assert.deepEqual(data("10-88-0-8.db.shop.svc.cluster.local", "A"), ["10.88.0.8"]);
    assert.equal(answer("db-2.db.shop.svc.cluster.local", "A").rcode, "NXDOMAIN");
  });

  test("SRV for named ports: the Service's port and name, or one per endpoint with its address", () => {
    assert.deepEqual(data("_http._tcp.web.default.svc.cluster.local", "SRV"), [
      { priority: 0, weight: 100, port: 80, target: "web.default.svc.cluster.local" },
    ]);
    const r = answer("_pg._tcp.db.shop.svc.cluster.local", "SRV");
    assert.deepEqual(
      r.answers.map((a) => (a as { data: { target: string; port: number } }).data.target),
      ["db-0.db.shop.svc.cluster.local", "10-88-0-8.db.shop.svc.cluster.local"],
    );
    assert.deepEqual(
      r.additionals.map((a) => [a.name, (a as { data: unknown }).data]),
      [
        ["db-0.db.shop.svc.cluster.local", "10.88.0.7"],
        ["10-88-0-8.db.shop.svc.cluster.local", "10.88.0.8"],
      ],
    );
    // An unnamed port has no SRV name.
    assert.equal(answer("_81._tcp.web.default.svc.cluster.local", "SRV").rcode, "NXDOMAIN");
  });

  test("PTR for ClusterIPs and endpoint addresses; unknown addresses are forwarded", () => {
    assert.equal(reverseName("10.96.0.20"), "20.0.96.10.in-addr.arpa");
    assert.deepEqual(data("20.0.96.10.in-addr.arpa", "PTR"), ["web.default.svc.cluster.local"]);
    assert.deepEqual(data("7.0.88.10.in-addr.arpa", "PTR"), ["db-0.db.shop.svc.cluster.local"]);
    assert.deepEqual(data("5.0.88.10.in-addr.arpa", "PTR"), [
      "10-88-0-5.web.default.svc.cluster.local",
    ]);
    assert.deepEqual(lookup("1.2.0.192.in-addr.arpa", "PTR", zone), { forward: true });
  });

  test("ExternalName is a CNAME; one into the zone is followed", () => {
    assert.deepEqual(data("ext.default.svc.cluster.local", "A"), ["example.org"]);
    const r = answer("alias.default.svc.cluster.local", "A");
    assert.deepEqual(
      r.answers.map((a) => [a.type, (a as { data: unknown }).data]),
      [
        ["CNAME", "web.default.svc.cluster.local"],
        ["A", "10.96.0.20"],
      ],
    );
  });

  test("NXDOMAIN with the SOA for unknown names; NODATA for names that exist without the type", () => {
    const nx = answer("nope.default.svc.cluster.local", "A");
    assert.equal(nx.rcode, "NXDOMAIN");
    assert.equal(nx.answers.length, 0);
    assert.equal(nx.authorities[0]?.type, "SOA");
    assert.equal(nx.authorities[0]?.name, "cluster.local");
    for (const name of ["svc.cluster.local", "default.svc.cluster.local", "shop.svc.cluster.local"])
      assert.equal(answer(name, "A").rcode, "NOERROR", name);
    const nodata = answer("web.default.svc.cluster.local", "AAAA");
    assert.equal(nodata.rcode, "NOERROR");
    assert.equal(nodata.answers.length, 0);
    assert.equal(nodata.authorities[0]?.type, "SOA");
    // A headless Service without ready endpoints has no records: NXDOMAIN, as CoreDNS.
    assert.equal(answer("empty.shop.svc.cluster.local", "A").rcode, "NXDOMAIN");
  });

  test("the apex: SOA and NS; pods by dashed address; dns-version", () => {
    assert.equal(answer("cluster.local", "SOA").answers[0]?.type, "SOA");
    assert.deepEqual(data("cluster.local", "NS"), ["ns.dns.cluster.local"]);
    assert.deepEqual(data("10-88-0-42.shop.pod.cluster.local", "A"), ["10.88.0.42"]);
    assert.equal(answer("10-88-0-420.shop.pod.cluster.local", "A").rcode, "NXDOMAIN");
    assert.deepEqual(data("dns-version.cluster.local", "TXT"), ["1.1.0"]);
  });

  test("names outside the zone are forwarded", () => {
    assert.deepEqual(lookup("example.org", "A", zone), { forward: true });
    assert.deepEqual(lookup("cluster.local.example.org", "A", zone), { forward: true });
    assert.deepEqual(lookup("notcluster.local", "A", zone), { forward: true });
  });

  test("another cluster domain", () => {
    const other = buildZone("hearth.internal", [svc("a", "b", { clusterIP: "10.96.0.30" })], []);
    assert.deepEqual(
      (
        lookup("b.a.svc.hearth.internal", "A", other) as { answers: { data: unknown }[] }
      ).answers.map((a) => a.data),
      ["10.96.0.30"],
    );
    assert.deepEqual(lookup("b.a.svc.cluster.local", "A", other), { forward: true });
  });
});
