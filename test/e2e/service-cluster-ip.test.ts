/**
 * Services over HTTP: ClusterIP allocation from 10.96.0.0/16 (unique under
 * concurrent creates, the lowest free address, a requested address checked for
 * range and use), immutability on update, headless Services, defaults and
 * kubectl's table columns.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ApiError } from "../../src/api/errors.js";
import type { KubeObject } from "../../src/api/types.js";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

type Svc = KubeObject & {
  spec: {
    clusterIP?: string;
    clusterIPs?: string[];
    type?: string;
    ports?: { name?: string; port: number; protocol?: string; targetPort?: number | string }[];
    selector?: Record<string, string>;
  };
};

const svc = (name: string, spec: Partial<Svc["spec"]> = {}, namespace = "default"): Svc => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name, namespace },
  spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec },
});

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected the API to refuse");
}

describe("Service ClusterIP allocation", () => {
  let s: InProcessServer;
  let client: HttpClient;

  before(async () => {
    s = await startInProcess();
    client = createHttpClient({ server: s.url });
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "other" } });
  });
  after(async () => {
    client?.close();
    await s?.stop();
  });

  it("allocates the lowest free address and fills kube's defaults", async () => {
    const a = await client.create(svc("first"));
    assert.equal(a.spec.clusterIP, "10.96.0.1");
    assert.deepEqual(a.spec.clusterIPs, ["10.96.0.1"]);
    assert.equal(a.spec.type, "ClusterIP");
    assert.deepEqual(a.spec.ports, [{ port: 80, protocol: "TCP", targetPort: 80 }]);
    const b = await client.create(svc("second", {}, "other"));
    assert.equal(b.spec.clusterIP, "10.96.0.2");
    await client.delete({ apiVersion: "v1", kind: "Service", name: "first", namespace: "default" });
    const c = await client.create(svc("third"));
    assert.equal(c.spec.clusterIP, "10.96.0.1", "a freed address is reused");
  });

  it("never gives two concurrent creates the same address", async () => {
    const created = await Promise.all(
      Array.from({ length: 25 }, (_, i) => client.create(svc(`burst-${i}`))),
    );
    const ips = created.map((x) => x.spec.clusterIP!);
    assert.equal(new Set(ips).size, ips.length);
    for (const ip of ips) assert.match(ip, /^10\.96\.\d+\.\d+$/);
    const all = await client.list<Svc>({ apiVersion: "v1", kind: "Service" });
    const every = all.items.map((x) => x.spec.clusterIP);
    assert.equal(new Set(every).size, every.length);
  });

  it("takes a requested address only when it is in range and free", async () => {
    const mine = await client.create(svc("pinned", { clusterIP: "10.96.9.9" }));
    assert.equal(mine.spec.clusterIP, "10.96.9.9");
    const taken = await refusal(client.create(svc("thief", { clusterIP: "10.96.9.9" })));
    assert.equal(taken.code, 422);
    assert.equal(
      taken.message,
      'Service "thief" is invalid: spec.clusterIP: Invalid value: "10.96.9.9": provided IP is already allocated',
    );
    const outside = await refusal(client.create(svc("outside", { clusterIP: "10.0.0.1" })));
    assert.equal(outside.code, 422);
    assert.match(
      outside.message,
      /provided IP is not in the valid range. The range of valid IPs is 10\.96\.0\.0\/16/,
    );
    const bad = await refusal(client.create(svc("bad", { clusterIP: "10.96.0.300" })));
    assert.equal(bad.code, 422);
    assert.match(
      bad.message,
      /spec\.clusterIP: Invalid value: "10\.96\.0\.300": must be a valid IP/,
    );
  });

  it("allocates on server-side apply create too", async () => {
    const applied = await client.apply<Svc>(svc("applied"), { fieldManager: "test" });
    assert.match(applied.spec.clusterIP ?? "", /^10\.96\./);
    // Re-applying without the address keeps it.
    const again = await client.apply<Svc>(
      { ...svc("applied"), spec: { ...svc("applied").spec, selector: { app: "other" } } },
      { fieldManager: "test" },
    );
    assert.deepEqual(again.spec.selector, { app: "other" });
    assert.equal(again.spec.clusterIP, applied.spec.clusterIP);
  });

  it("keeps the address immutable on update", async () => {
    const x = await client.create(svc("fixed"));
    const moved = await refusal(
      client.update({
        ...x,
        spec: { ...x.spec, clusterIP: "10.96.200.1", clusterIPs: ["10.96.200.1"] },
      }),
    );
    assert.equal(moved.code, 422);
    assert.match(
      moved.message,
      /spec\.clusterIPs\[0\]: Invalid value: "10\.96\.200\.1": may not change once set/,
    );
    // An update that omits the address keeps it, as kube's patchAllocatedValues does.
    const kept = await client.update({
      ...x,
      spec: { ...x.spec, clusterIP: undefined, clusterIPs: undefined, ports: [{ port: 8080 }] },
    });
    assert.equal(kept.spec.clusterIP, x.spec.clusterIP);
    assert.deepEqual(kept.spec.clusterIPs, [x.spec.clusterIP]);
  });

  it("serves headless Services without an address or ports", async () => {
    const h = await client.create(svc("headless", { clusterIP: "None", ports: [] }));
    assert.equal(h.spec.clusterIP, "None");
    assert.deepEqual(h.spec.clusterIPs, ["None"]);
    const noPorts = await refusal(client.create(svc("noports", { ports: [] })));
    assert.match(noPorts.message, /spec\.ports: Required value/);
  });

  it("refuses the types and ports Hearth does not serve", async () => {
    const np = await refusal(client.create(svc("np", { type: "NodePort" })));
    assert.match(
      np.message,
      /spec\.type: Unsupported value: "NodePort": supported values: "ClusterIP"/,
    );
    const two = await refusal(client.create(svc("two", { ports: [{ port: 80 }, { port: 81 }] })));
    assert.match(two.message, /spec\.ports\[0\]\.name: Required value/);
    const range = await refusal(client.create(svc("range", { ports: [{ port: 70000 }] })));
    assert.match(
      range.message,
      /spec\.ports\[0\]\.port: Invalid value: 70000: must be between 1 and 65535/,
    );
  });

  it("prints kubectl's columns", async () => {
    await client.create(
      svc("web", {
        ports: [
          { name: "http", port: 80 },
          { name: "https", port: 443 },
        ],
        selector: { app: "web", tier: "a" },
      }),
    );
    const res = await s.request("GET", "/api/v1/namespaces/default/services/web", undefined, {
      Accept: "application/json;as=Table;v=v1;g=meta.k8s.io",
    });
    const table = res.body as {
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[] }[];
    };
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ["Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector"],
    );
    const cells = table.rows[0]!.cells;
    assert.equal(cells[1], "ClusterIP");
    assert.match(String(cells[2]), /^10\.96\./);
    assert.equal(cells[3], "<none>");
    assert.equal(cells[4], "80/TCP,443/TCP");
    assert.equal(cells[6], "app=web,tier=a");
  });
});
