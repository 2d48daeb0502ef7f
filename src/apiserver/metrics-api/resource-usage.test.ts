/**
 * When ResourceUsage scrapes a node: twice, a `freshMs` apart, the first
 * time (or after `staleMs`); not again within `freshMs`; once for requests
 * that arrive while a scrape runs; a node that fails left out and logged
 * once until it answers again; nothing left running once the server stops.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NODE_LOG_TOKEN_ANNOTATION, type Node } from "../../api/index.js";
import type { NodeConnection } from "../node-connection.js";
import { ResourceUsage } from "./resource-usage.js";

const node = (name: string, address = "127.0.0.1"): Node => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name, annotations: { [NODE_LOG_TOKEN_ANNOTATION]: `tok-${name}` } },
  status: {
    addresses: [{ type: "InternalIP", address }],
    daemonEndpoints: { kubeletEndpoint: { Port: 10255 } },
  },
});

/** A stand-in agent: each scrape of a node is one more second of its clock, half a core busy. */
function agents(failing = new Set<string>()) {
  const asked: string[] = [];
  const counts = new Map<string, number>();
  const scrape = async (c: NodeConnection) => {
    asked.push(`${c.nodeName}@${c.address}:${c.port} ${c.token}`);
    if (failing.has(c.nodeName)) throw new Error("connect ECONNREFUSED");
    const n = (counts.get(c.nodeName) ?? 0) + 1;
    counts.set(c.nodeName, n);
    const t = 1_800_000_000_000 + n * 1000;
    return `node_cpu_usage_seconds_total ${n * 0.5} ${t}\nnode_memory_working_set_bytes 1024 ${t}\n`;
  };
  return { asked, scrape, failing };
}

describe("ResourceUsage", () => {
  it("samples a node twice the first time, then not again while fresh", async () => {
    const a = agents();
    const usage = new ResourceUsage(new AbortController().signal, {
      freshMs: 30,
      scrape: a.scrape,
    });
    const first = await usage.measure([node("n1")]);
    assert.deepEqual(a.asked, ["n1@127.0.0.1:10255 tok-n1", "n1@127.0.0.1:10255 tok-n1"]);
    assert.equal(first.get("n1")?.nodeUsage()?.cpuNanoCores, 500_000_000);
    await usage.measure([node("n1")]);
    assert.equal(a.asked.length, 2, "fresh: not scraped again");
  });

  it("shares one scrape between requests that arrive while it runs", async () => {
    const a = agents();
    const usage = new ResourceUsage(new AbortController().signal, {
      freshMs: 10,
      scrape: a.scrape,
    });
    const [x, y] = await Promise.all([usage.measure([node("n1")]), usage.measure([node("n1")])]);
    assert.equal(a.asked.length, 2);
    assert.equal(x.get("n1"), y.get("n1"));
  });

  it("scrapes once more after freshMs, and twice again once the last is stale", async () => {
    const a = agents();
    let clock = 0;
    const usage = new ResourceUsage(new AbortController().signal, {
      freshMs: 1,
      staleMs: 1000,
      scrape: a.scrape,
      now: () => clock,
    });
    await usage.measure([node("n1")]);
    assert.equal(a.asked.length, 2);
    clock += 500;
    // Past freshMs, not stale: one scrape, measured from the one before.
    const history = (await usage.measure([node("n1")])).get("n1");
    assert.equal(a.asked.length, 3);
    assert.equal(history?.nodeUsage()?.windowMs, 1000, "the agent's clock: one scrape, one second");
    clock += 2000;
    await usage.measure([node("n1")]);
    assert.equal(a.asked.length, 5, "stale: sampled twice again");
  });

  it("leaves out a node that fails, logging it once until it answers again", async () => {
    const failing = new Set(["bad"]);
    const a = agents(failing);
    const logged: string[] = [];
    let clock = 0;
    const usage = new ResourceUsage(new AbortController().signal, {
      freshMs: 1,
      scrape: a.scrape,
      log: (m) => logged.push(m),
      now: () => clock,
    });
    const nodes = [node("good"), node("bad"), { ...node("hostless"), status: {} }];
    const got = await usage.measure(nodes);
    assert.deepEqual([...got.keys()], ["good"]);
    clock += 10;
    await usage.measure(nodes);
    assert.deepEqual([...logged].sort(), [
      "metrics: cannot read the resource usage of node bad; it is left out",
      "metrics: cannot read the resource usage of node hostless; it is left out",
    ]);
    failing.clear();
    clock += 10;
    const back = await usage.measure([node("bad")]);
    assert.ok(back.has("bad"));
    assert.equal(logged.at(-1), "metrics: node bad answers again");
  });

  it("stops waiting when the server stops", async () => {
    const a = agents();
    const stop = new AbortController();
    const usage = new ResourceUsage(stop.signal, { freshMs: 60_000, scrape: a.scrape });
    const measuring = usage.measure([node("n1")]);
    stop.abort();
    // The second sample is not taken: the wait for it ends with the server.
    assert.deepEqual([...(await measuring).keys()], []);
    assert.equal(a.asked.length, 1);
  });
});
