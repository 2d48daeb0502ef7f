/**
 * metrics.k8s.io through the in-process apiserver, with stand-in node agents
 * serving `/metrics/resource`: discovery as metrics-server registers the
 * group, PodMetrics and NodeMetrics lists and gets with exact figures (the
 * agent's counters rise half a core-second per second of its clock), label
 * and field selectors, Tables, one scrape per node for back-to-back reads,
 * an agent that is down or a node without an address left out, NotFound for
 * a missing or unmeasured pod, and 405 for watch and writes.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Env } from "../../../test/support/envtest.js";
import { type RawApi, startRawEnv } from "../../../test/support/raw-http.js";
import { type KubeObject, NODE_LOG_TOKEN_ANNOTATION, type Status } from "../../api/index.js";

const NS = "metrics";
const T0 = 1_800_000_000_000;
let env: Env;
let api: RawApi;
let agent: Server;
/** Scrapes the stand-in agent answered, with the token each sent. */
const scrapes: string[] = [];

/** The agent's text for its n-th scrape: every second of its clock, half a core-second more. */
function resourceMetrics(n: number): string {
  const t = T0 + n * 1000;
  const cpu = (base: number) => base + n * 0.5;
  const line = (pod: string, c: string) =>
    `container_cpu_usage_seconds_total{container="${c}",namespace="${NS}",pod="${pod}"} ${cpu(1)} ${t}\n` +
    `container_memory_working_set_bytes{container="${c}",namespace="${NS}",pod="${pod}"} 41943040 ${t}\n`;
  return (
    line("web", "main") +
    line("web", "side") +
    line("db", "main") +
    `node_cpu_usage_seconds_total ${cpu(100) * 4} ${t}\nnode_memory_working_set_bytes 2147483648 ${t}\n`
  );
}

before(async () => {
  ({ env, api } = await startRawEnv(NS));
  agent = createServer((req, res) => {
    if (req.url !== "/metrics/resource") {
      res.writeHead(404);
      res.end();
      return;
    }
    scrapes.push(req.headers.authorization ?? "");
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
    res.end(resourceMetrics(scrapes.length));
  });
  await new Promise<void>((resolve) => agent.listen(0, "127.0.0.1", resolve));
  const agentPort = (agent.address() as AddressInfo).port;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const deadPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const node = async (name: string, addresses: object[], port?: number) => {
    await api.ok("POST", "/api/v1/nodes", {
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        name,
        labels: { role: name },
        annotations: { [NODE_LOG_TOKEN_ANNOTATION]: `tok-${name}` },
      },
    });
    await api.ok("PATCH", `/api/v1/nodes/${name}/status`, {
      status: {
        addresses,
        ...(port ? { daemonEndpoints: { kubeletEndpoint: { Port: port } } } : {}),
      },
    });
  };
  await node("up", [{ type: "InternalIP", address: "127.0.0.1" }], agentPort);
  await node("down", [{ type: "InternalIP", address: "127.0.0.1" }], deadPort);
  await node("hostless", [{ type: "Hostname", address: "h1" }]);
  const pod = (name: string, nodeName: string, labels: Record<string, string>) =>
    api.ok("POST", `/api/v1/namespaces/${NS}/pods`, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, labels },
      spec: { nodeName, containers: [{ name: "main", image: "busybox" }] },
    });
  await pod("web", "up", { app: "web" });
  await pod("db", "up", { app: "db" });
  await pod("elsewhere", "down", { app: "web" });
  await pod("fresh", "up", { app: "fresh" });
});
after(async () => {
  await new Promise<void>((resolve) => agent.close(() => resolve()));
  await env.stop();
});

const names = (list: unknown) =>
  (list as { items: KubeObject[] }).items.map((i) => i.metadata.name);

describe("metrics.k8s.io", () => {
  it("is in discovery as metrics-server registers it", async () => {
    const groups = await api.ok<{ groups: { name: string; versions: { version: string }[] }[] }>(
      "GET",
      "/apis",
    );
    const group = groups.groups.find((g) => g.name === "metrics.k8s.io");
    assert.deepEqual(
      group?.versions.map((v) => v.version),
      ["v1beta1"],
    );
    const list = await api.ok<{ resources: Record<string, unknown>[] }>(
      "GET",
      "/apis/metrics.k8s.io/v1beta1",
    );
    assert.deepEqual(
      list.resources.map(({ name, singularName, namespaced, kind, verbs }) => ({
        name,
        singularName,
        namespaced,
        kind,
        verbs,
      })),
      [
        {
          name: "pods",
          singularName: "",
          namespaced: true,
          kind: "PodMetrics",
          verbs: ["get", "list"],
        },
        {
          name: "nodes",
          singularName: "",
          namespaced: false,
          kind: "NodeMetrics",
          verbs: ["get", "list"],
        },
      ],
    );
  });

  it("is in OpenAPI v3 with its schemas and read paths only", async () => {
    const index = await api.ok<{ paths: Record<string, { serverRelativeURL: string }> }>(
      "GET",
      "/openapi/v3",
    );
    const ref = index.paths["apis/metrics.k8s.io/v1beta1"];
    assert.ok(ref, "the group-version has a document");
    const doc = await api.ok<{ paths: Record<string, object>; components: { schemas: object } }>(
      "GET",
      ref.serverRelativeURL,
    );
    const methods = Object.values(doc.paths).flatMap((p) =>
      Object.keys(p).filter((k) => k !== "parameters"),
    );
    assert.deepEqual([...new Set(methods)], ["get"]);
    assert.ok(
      `/apis/metrics.k8s.io/v1beta1/namespaces/{namespace}/pods/{name}` in doc.paths,
      Object.keys(doc.paths).join(" "),
    );
    const schemas = Object.keys(doc.components.schemas);
    assert.ok(
      schemas.some((s) => s.endsWith("PodMetrics")),
      schemas.join(" "),
    );
    assert.ok(
      schemas.some((s) => s.endsWith("NodeMetrics")),
      schemas.join(" "),
    );
  });

  it("lists the measured pods with their containers' usage, scraping each node once", async () => {
    const list = await api.ok<{ kind: string; metadata: object; items: Record<string, unknown>[] }>(
      "GET",
      `/apis/metrics.k8s.io/v1beta1/namespaces/${NS}/pods`,
    );
    // The first read of a node samples it twice, a second apart.
    assert.deepEqual(scrapes, ["Bearer tok-up", "Bearer tok-up"]);
    assert.equal(list.kind, "PodMetricsList");
    assert.deepEqual(list.metadata, {});
    // Sorted by name; "elsewhere" (agent down) and "fresh" (not measured) are left out.
    assert.deepEqual(names(list), ["db", "web"]);
    const web = list.items[1]!;
    assert.deepEqual(web.metadata, {
      name: "web",
      namespace: NS,
      creationTimestamp: (web.metadata as { creationTimestamp: string }).creationTimestamp,
      labels: { app: "web" },
    });
    assert.equal(web.timestamp, new Date(T0 + 2000).toISOString().replace(".000", ""));
    assert.equal(web.window, "1s");
    assert.deepEqual(web.containers, [
      { name: "main", usage: { cpu: "500m", memory: "40Mi" } },
      { name: "side", usage: { cpu: "500m", memory: "40Mi" } },
    ]);
    // A read right after is served from the same scrape.
    await api.ok("GET", `/apis/metrics.k8s.io/v1beta1/pods`);
    assert.equal(scrapes.length, 2);
  });

  it("chooses pods by label and by metadata.name, in a namespace or all of them", async () => {
    const base = "/apis/metrics.k8s.io/v1beta1";
    assert.deepEqual(
      names(await api.ok("GET", `${base}/namespaces/${NS}/pods?labelSelector=app%3Dweb`)),
      ["web"],
    );
    assert.deepEqual(names(await api.ok("GET", `${base}/pods?fieldSelector=metadata.name%3Ddb`)), [
      "db",
    ]);
    assert.deepEqual(names(await api.ok("GET", `${base}/namespaces/default/pods`)), []);
    const refused = await api.call("GET", `${base}/pods?fieldSelector=spec.nodeName%3Dup`);
    assert.equal(refused.status, 400);
  });

  it("gets one pod, and answers NotFound for a missing or unmeasured one", async () => {
    const base = `/apis/metrics.k8s.io/v1beta1/namespaces/${NS}/pods`;
    const db = await api.ok<{ kind: string; containers: unknown[] }>("GET", `${base}/db`);
    assert.equal(db.kind, "PodMetrics");
    assert.deepEqual(db.containers, [{ name: "main", usage: { cpu: "500m", memory: "40Mi" } }]);
    const missing = await api.call("GET", `${base}/nosuch`);
    assert.equal(missing.status, 404);
    assert.equal((missing.body as Status).message, 'pods "nosuch" not found');
    const unmeasured = await api.call("GET", `${base}/fresh`);
    assert.equal(unmeasured.status, 404);
    assert.equal(
      (unmeasured.body as Status).message,
      `pods.metrics.k8s.io "${NS}/fresh" not found`,
    );
  });

  it("lists and gets nodes, leaving out those whose agent cannot be read", async () => {
    const list = await api.ok<{ kind: string; items: Record<string, unknown>[] }>(
      "GET",
      "/apis/metrics.k8s.io/v1beta1/nodes",
    );
    assert.equal(list.kind, "NodeMetricsList");
    assert.deepEqual(names(list), ["up"]);
    assert.deepEqual(list.items[0]!.usage, { cpu: "2", memory: "2Gi" });
    assert.deepEqual((list.items[0]!.metadata as KubeObject["metadata"]).labels, { role: "up" });
    assert.deepEqual(
      names(await api.ok("GET", "/apis/metrics.k8s.io/v1beta1/nodes?labelSelector=role%3Ddown")),
      [],
    );
    const down = await api.call("GET", "/apis/metrics.k8s.io/v1beta1/nodes/down");
    assert.equal(down.status, 404);
    assert.equal((down.body as Status).message, 'nodes.metrics.k8s.io "down" not found');
    assert.equal((await api.call("GET", "/apis/metrics.k8s.io/v1beta1/nodes/nosuch")).status, 404);
  });

  it("renders metrics-server's Table columns", async () => {
    const res = await fetch(`${env.url}/apis/metrics.k8s.io/v1beta1/namespaces/${NS}/pods/web`, {
      headers: { accept: "application/json;as=Table;v=v1;g=meta.k8s.io" },
    });
    const table = (await res.json()) as {
      columnDefinitions: { name: string; format: string }[];
      rows: { cells: unknown[] }[];
    };
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.format]),
      [
        ["Name", "name"],
        ["cpu", "quantity"],
        ["memory", "quantity"],
        ["Window", "duration"],
      ],
    );
    // The pod's containers summed.
    assert.deepEqual(table.rows[0]!.cells, ["web", "1", "80Mi", "1s"]);
  });

  it("refuses watch and writes with 405", async () => {
    const watch = await api.call("GET", "/apis/metrics.k8s.io/v1beta1/pods?watch=true");
    assert.equal(watch.status, 405);
    assert.equal(
      (watch.body as Status).message,
      'watch is not supported on resources of kind "pods.metrics.k8s.io"',
    );
    const create = await api.call("POST", `/apis/metrics.k8s.io/v1beta1/namespaces/${NS}/pods`, {
      apiVersion: "metrics.k8s.io/v1beta1",
      kind: "PodMetrics",
      metadata: { name: "x" },
    });
    assert.equal(create.status, 405);
    assert.equal((await api.call("DELETE", "/apis/metrics.k8s.io/v1beta1/nodes/up")).status, 405);
  });
});
