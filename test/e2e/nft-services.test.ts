/**
 * Services in nftables on a real kernel: a bridge with four network namespaces
 * (three backends answering their own name on 0.0.0.0:8080, one client), the
 * ruleset applied to a table of this test's in the host namespace. ClusterIP
 * from the client and from the host reaches all three backends; a removed
 * endpoint gets nothing after the rebuild; ClientIP affinity holds; a backend
 * reaches itself through a Service (hairpin); a NodePort answers on the
 * bridge address; a Service without endpoints refuses. Then the controller on a
 * real apiserver keeps a table of its own current from Service and
 * EndpointSlice objects and deletes it when its Manager stops. Everything made
 * (processes, namespaces, links, tables) is removed in `after`, failed or not;
 * test/support/netns-bridge.ts says what the bridge needs for Service traffic.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import type { KubeObject } from "../../src/api/index.js";
import {
  applyScript,
  deleteTable,
  registerServiceRules,
  renderRuleset,
  tableContents,
  tableExists,
} from "../../src/node/index.js";
import type { EndpointSliceObject, ServiceObject } from "../../src/node/nft/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";
import {
  type BridgeNet,
  NET_INDEX,
  netnsHost,
  netnsSkipReason,
  startBridgeNet,
} from "../support/netns-bridge.js";

const run = promisify(execFile);

const PID = process.pid;
const N = NET_INDEX;
const NET = `10.251.${N}`;
const SVC_NET = `10.252.${N}`;
const GATEWAY = `${NET}.1`;
const TABLE = `hnt${PID}`;
const CONTROLLER_TABLE = `hnr${PID}`;
const NODE_PORT = 30_000 + N;
const BACKENDS = ["b0", "b1", "b2"].map((name, i) => netnsHost("hn", i, name, `${NET}.${10 + i}`));
const CLIENT = netnsHost("hn", 3, "client", `${NET}.20`);
const FACTS = { nodeIPs: [GATEWAY], podCIDR: `${NET}.0/24`, serviceCIDR: `${SVC_NET}.0/25` };

const SERVER = `require("net").createServer((s) => s.end(process.argv[1] + "\\n"))
  .listen(8080, "0.0.0.0", () => console.log("ready"));`;
/** Connects `n` times in a row to ip:port, printing the answers as JSON. */
const CLIENT_SCRIPT = `const net = require("net");
const [ip, port, n] = process.argv.slice(1);
const once = () => new Promise((resolve) => {
  let data = "";
  const s = net.connect(Number(port), ip);
  s.setTimeout(3000, () => { s.destroy(); resolve("ERR:timeout"); });
  s.on("data", (b) => { data += b; });
  s.on("end", () => resolve(data.trim()));
  s.on("error", (e) => resolve("ERR:" + e.code));
});
(async () => { const out = []; for (let i = 0; i < Number(n); i++) out.push(await once());
  console.log(JSON.stringify(out)); })();`;

/** `n` connections from the network namespace `ns` (or the host), their answers. */
async function answers(
  ns: string | undefined,
  ip: string,
  port: number,
  n: number,
): Promise<string[]> {
  if (ns) {
    const { stdout } = await run(
      "ip",
      ["netns", "exec", ns, "node", "-e", CLIENT_SCRIPT, ip, String(port), String(n)],
      {
        timeout: 60_000,
      },
    );
    return JSON.parse(stdout) as string[];
  }
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      await new Promise<string>((resolve) => {
        let data = "";
        const s = connect(port, ip);
        s.setTimeout(3000, () => {
          s.destroy();
          resolve("ERR:timeout");
        });
        s.on("data", (b) => {
          data += b;
        });
        s.on("end", () => resolve(data.trim()));
        s.on("error", (e: NodeJS.ErrnoException) => resolve(`ERR:${e.code}`));
      }),
    );
  return out;
}

const distinct = (xs: string[]) => [...new Set(xs)].sort();

const svc = (
  name: string,
  clusterIP: string,
  extra: Partial<NonNullable<ServiceObject["spec"]>> = {},
) =>
  ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { namespace: "default", name },
    spec: { clusterIP, ports: [{ name: "http", port: 80 }], ...extra },
  }) satisfies ServiceObject;
const slice = (service: string, ips: string[]): EndpointSliceObject => ({
  apiVersion: "discovery.k8s.io/v1",
  kind: "EndpointSlice",
  metadata: {
    namespace: "default",
    name: `${service}-abcde`,
    labels: { "kubernetes.io/service-name": service },
  },
  addressType: "IPv4",
  ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  endpoints: ips.map((a) => ({ addresses: [a], conditions: { ready: true } })),
});

/** Renders the static Services of this test with `webIPs` behind `web`, and applies them. */
async function applyStatic(webIPs: string[]): Promise<void> {
  const services = [
    svc("web", `${SVC_NET}.10`, {
      type: "NodePort",
      ports: [{ name: "http", port: 80, nodePort: NODE_PORT }],
    }),
    svc("sticky", `${SVC_NET}.11`, { sessionAffinity: "ClientIP" }),
    svc("self", `${SVC_NET}.12`),
    svc("empty", `${SVC_NET}.13`),
  ];
  const slices = [
    slice("web", webIPs),
    slice(
      "sticky",
      BACKENDS.map((b) => b.ip),
    ),
    slice("self", [BACKENDS[0]?.ip ?? ""]),
  ];
  const { text, skipped } = renderRuleset(
    TABLE,
    services,
    slices,
    FACTS,
    await tableContents(TABLE),
  );
  assert.deepEqual(skipped, []);
  await applyScript(text);
}

const skip = netnsSkipReason();

describe("Services in nftables on a bridge of network namespaces", { skip }, () => {
  let net: BridgeNet | undefined;

  before(async () => {
    net = await startBridgeNet("hn", NET, [...BACKENDS, CLIENT]);
    await Promise.all(BACKENDS.map((b) => net?.spawnIn(b, SERVER)));
  });

  after(async () => {
    for (const t of [TABLE, CONTROLLER_TABLE]) await deleteTable(t).catch(() => {});
    await net?.stop();
  });

  test("a ClusterIP reaches all three backends from a pod and from the host", async () => {
    await applyStatic(BACKENDS.map((b) => b.ip));
    const fromPod = await answers(CLIENT.ns, `${SVC_NET}.10`, 80, 60);
    assert.deepEqual(distinct(fromPod), ["b0", "b1", "b2"], fromPod.join(" "));
    const fromHost = await answers(undefined, `${SVC_NET}.10`, 80, 60);
    assert.deepEqual(distinct(fromHost), ["b0", "b1", "b2"], fromHost.join(" "));
  });

  test("a NodePort answers on the node address, from a pod and from the host", async () => {
    assert.deepEqual(distinct(await answers(CLIENT.ns, GATEWAY, NODE_PORT, 30)), [
      "b0",
      "b1",
      "b2",
    ]);
    assert.deepEqual(distinct(await answers(undefined, GATEWAY, NODE_PORT, 30)), [
      "b0",
      "b1",
      "b2",
    ]);
  });

  test("a removed endpoint gets no more traffic once the table is rebuilt", async () => {
    await applyStatic([BACKENDS[0]?.ip ?? "", BACKENDS[2]?.ip ?? ""]);
    const got = await answers(CLIENT.ns, `${SVC_NET}.10`, 80, 60);
    assert.deepEqual(distinct(got), ["b0", "b2"], got.join(" "));
    await applyStatic(BACKENDS.map((b) => b.ip));
  });

  test("ClientIP affinity keeps a client on one backend, across a rebuild", async () => {
    const first = await answers(CLIENT.ns, `${SVC_NET}.11`, 80, 20);
    assert.equal(distinct(first).length, 1, first.join(" "));
    await applyStatic(BACKENDS.map((b) => b.ip));
    const again = await answers(CLIENT.ns, `${SVC_NET}.11`, 80, 20);
    assert.deepEqual(distinct(again), distinct(first), "the session outlives the rebuild");
    const host = await answers(undefined, `${SVC_NET}.11`, 80, 20);
    assert.equal(distinct(host).length, 1, host.join(" "));
  });

  test("hairpin: a backend reaches itself through a Service", async () => {
    const b0 = BACKENDS[0];
    assert.ok(b0);
    assert.deepEqual(await answers(b0.ns, `${SVC_NET}.12`, 80, 5), ["b0", "b0", "b0", "b0", "b0"]);
  });

  test("a Service without endpoints refuses; an unknown port of a ClusterIP too", async () => {
    assert.deepEqual(await answers(CLIENT.ns, `${SVC_NET}.13`, 80, 1), ["ERR:ECONNREFUSED"]);
    assert.deepEqual(await answers(undefined, `${SVC_NET}.13`, 80, 1), ["ERR:ECONNREFUSED"]);
    assert.deepEqual(await answers(undefined, `${SVC_NET}.10`, 81, 1), ["ERR:ECONNREFUSED"]);
  });

  test("deleting the table leaves no trace", async () => {
    await deleteTable(TABLE);
    assert.equal(await tableExists(TABLE), false);
    const { stdout } = await run("nft", ["list", "tables"]);
    assert.doesNotMatch(stdout, new RegExp(`\\b${TABLE}\\b`));
    await deleteTable(TABLE); // a second delete is no error
  });

  describe("the controller on a real apiserver", () => {
    let env: Env;
    before(async () => {
      env = await startEnv({ serviceCidr: `${SVC_NET}.128/25` });
    });
    after(() => env?.stop());

    test("follows Services and EndpointSlices, and deletes its table when the Manager stops", async () => {
      const warnings: string[] = [];
      registerServiceRules(env.manager, {
        table: CONTROLLER_TABLE,
        ...FACTS,
        serviceCIDR: `${SVC_NET}.128/25`,
        warn: (m) => warnings.push(m),
      });
      env.startManager();
      const created = await env.client.create<ServiceObject & KubeObject>({
        apiVersion: "v1",
        kind: "Service",
        metadata: { namespace: "default", name: "web" },
        spec: { ports: [{ name: "http", port: 80 }] },
      } as ServiceObject);
      const clusterIP = created.spec?.clusterIP ?? "";
      assert.match(clusterIP, new RegExp(`^${SVC_NET.replaceAll(".", "\\.")}\\.`));
      await env.client.create(
        slice(
          "web",
          BACKENDS.map((b) => b.ip),
        ) as KubeObject,
      );
      const all = await waitFor("all three backends through the controller's table", async () => {
        const got = await answers(CLIENT.ns, clusterIP, 80, 30);
        return distinct(got).join() === "b0,b1,b2" ? got : undefined;
      });
      assert.equal(all.length, 30);

      const current = await env.client.get<EndpointSliceObject>({
        apiVersion: "discovery.k8s.io/v1",
        kind: "EndpointSlice",
        namespace: "default",
        name: "web-abcde",
      });
      await env.client.update({ ...current, endpoints: [{ addresses: [BACKENDS[1]?.ip ?? ""] }] });
      await waitFor("only b1 after the slice changed", async () => {
        const got = await answers(CLIENT.ns, clusterIP, 80, 20);
        return distinct(got).join() === "b1" ? got : undefined;
      });

      await env.client.delete({
        apiVersion: "v1",
        kind: "Service",
        namespace: "default",
        name: "web",
      });
      await waitFor("the Service's chains gone", async () => {
        const { chains } = await tableContents(CONTROLLER_TABLE);
        return (
          chains.length > 0 && !chains.some((c) => c.startsWith("svc-") || c.startsWith("ep-"))
        );
      });

      assert.equal(await tableExists(CONTROLLER_TABLE), true);
      await env.stopManager();
      assert.equal(await tableExists(CONTROLLER_TABLE), false, "the table goes with the Manager");
      assert.deepEqual(warnings, []);
    });
  });
});
