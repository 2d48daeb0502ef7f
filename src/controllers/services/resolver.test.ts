import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeList, KubeObject } from "../../api/index.js";
import { NotFoundError } from "../../api/index.js";
import type { ObjectRef, Reader } from "../../client/index.js";
import { parseServiceName, ResolveError, resolveHost, resolveService } from "./resolver.js";

/** A Reader over a fixed set of objects. */
function reader(objects: KubeObject[]): Reader {
  return {
    async get<T extends KubeObject>({ kind, name, namespace: ns }: ObjectRef) {
      const o = objects.find(
        (x) => x.kind === kind && x.metadata.name === name && x.metadata.namespace === ns,
      );
      if (!o) throw new NotFoundError({ group: "", resource: kind.toLowerCase(), name });
      return o as T;
    },
    async list<T extends KubeObject>() {
      return { apiVersion: "v1", kind: "List", metadata: {}, items: [] } as KubeList<T>;
    },
  };
}

const objects: KubeObject[] = [
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "etcd", namespace: "tenant-a" },
    spec: { clusterIP: "127.2.0.7" },
  },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "etcd-headless", namespace: "tenant-a" },
    spec: { clusterIP: "None" },
  },
  {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "etcd-headless", namespace: "tenant-a" },
    subsets: [
      {
        addresses: [
          { ip: "127.1.0.5", hostname: "etcd-1", targetRef: { kind: "Pod", name: "etcd-1" } },
          { ip: "127.1.0.4", targetRef: { kind: "Pod", name: "etcd-0" } },
        ],
        notReadyAddresses: [{ ip: "127.1.0.6", hostname: "etcd-2" }],
      },
    ],
  },
];

describe("resolver", () => {
  it("parses the service name forms", () => {
    assert.deepEqual(parseServiceName("a.b.svc"), { service: "a", namespace: "b" });
    assert.deepEqual(parseServiceName("a.b.svc.cluster.local."), { service: "a", namespace: "b" });
    assert.deepEqual(parseServiceName("p.a.b.svc.cluster.local"), {
      pod: "p",
      service: "a",
      namespace: "b",
    });
    assert.deepEqual(parseServiceName("a.b.svc.example.org", { clusterDomain: "example.org" }), {
      service: "a",
      namespace: "b",
    });
    assert.deepEqual(parseServiceName("a.b"), { service: "a", namespace: "b" });
    assert.deepEqual(parseServiceName("a", { namespace: "n" }), { service: "a", namespace: "n" });
    for (const bad of ["a", "a.b.c", "x.y.z.w.svc", "a..svc", ""])
      assert.throws(() => parseServiceName(bad), ResolveError, bad);
  });

  it("answers ClusterIPs, headless pod IPs and pod names", async () => {
    const r = reader(objects);
    assert.deepEqual(await resolveService(r, "etcd.tenant-a.svc"), ["127.2.0.7"]);
    assert.deepEqual(await resolveService(r, "etcd-headless.tenant-a.svc.cluster.local"), [
      "127.1.0.4",
      "127.1.0.5",
    ]);
    assert.deepEqual(await resolveService(r, "etcd-1.etcd-headless.tenant-a.svc"), ["127.1.0.5"]);
    assert.deepEqual(await resolveService(r, "etcd-0.etcd-headless.tenant-a.svc"), ["127.1.0.4"]);
    await assert.rejects(
      resolveService(r, "etcd-2.etcd-headless.tenant-a.svc"),
      /no ready pod "etcd-2"/,
    );
    await assert.rejects(
      resolveService(r, "nope.tenant-a.svc"),
      /service "tenant-a\/nope" not found/,
    );
  });

  it("passes addresses through", async () => {
    const r = reader(objects);
    assert.deepEqual(await resolveHost(r, "127.0.0.1"), ["127.0.0.1"]);
    assert.deepEqual(await resolveHost(r, "localhost"), ["localhost"]);
    assert.deepEqual(await resolveHost(r, "::1"), ["::1"]);
    assert.deepEqual(await resolveHost(r, "etcd.tenant-a"), ["127.2.0.7"]);
  });
});
