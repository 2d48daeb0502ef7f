/**
 * metrics-server's storage for one node: usage between the last two points,
 * the previous point kept or replaced, a new run measured from its start, a
 * pod only once all its containers have two points, counters that go back.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type NodeScrape, podKey, type UsagePoint } from "./resource-scrape.js";
import { UsageHistory, usageBetween } from "./usage-history.js";

const T0 = 1_800_000_000_000;
const point = (t: number, cpuSeconds: number, memory = 1024, startMs?: number): UsagePoint => ({
  timestampMs: T0 + t,
  cpuNanoSeconds: cpuSeconds * 1e9,
  memoryBytes: memory,
  ...(startMs !== undefined ? { startMs: T0 + startMs } : {}),
});
const scrape = (node: UsagePoint | undefined, pods: Record<string, Record<string, UsagePoint>>) =>
  ({
    ...(node ? { node } : {}),
    pods: new Map(Object.entries(pods).map(([k, cs]) => [k, new Map(Object.entries(cs))] as const)),
  }) satisfies NodeScrape;

const WEB = podKey("shop", "web");

describe("usageBetween", () => {
  it("is the CPU time's rise over the window, and the last working set", () => {
    assert.deepEqual(usageBetween(point(2000, 3, 4096), point(0, 2)), {
      cpuNanoCores: 500_000_000,
      memoryBytes: 4096,
      timestampMs: T0 + 2000,
      windowMs: 2000,
    });
  });

  it("is nothing when the counter went back, the start moved back, or no time passed", () => {
    assert.equal(usageBetween(point(1000, 1), point(0, 2)), undefined);
    assert.equal(usageBetween(point(1000, 3, 1, -5000), point(0, 2, 1, -1000)), undefined);
    assert.equal(usageBetween(point(0, 3), point(0, 2)), undefined);
  });
});

describe("UsageHistory", () => {
  it("measures a node from its second scrape on, over the last two", () => {
    const h = new UsageHistory();
    h.store(scrape(point(0, 10), {}));
    assert.equal(h.nodeUsage(), undefined);
    assert.equal(h.nodeMeasured, false);
    h.store(scrape(point(1000, 11), {}));
    assert.equal(h.nodeUsage()?.cpuNanoCores, 1e9);
    h.store(scrape(point(3000, 11.5), {}));
    assert.deepEqual(
      { cpu: h.nodeUsage()?.cpuNanoCores, window: h.nodeUsage()?.windowMs },
      { cpu: 250_000_000, window: 2000 },
    );
  });

  it("keeps the previous point when a scrape repeats the last one's time", () => {
    const h = new UsageHistory();
    h.store(scrape(point(0, 10), {}));
    h.store(scrape(point(1000, 12), {}));
    h.store(scrape(point(1000, 12), {}));
    assert.equal(h.nodeUsage()?.windowMs, 1000);
  });

  it("measures a container seen for the first time from its start", () => {
    const h = new UsageHistory();
    h.store(scrape(point(0, 10), { [WEB]: { main: point(0, 0.5, 2048, -2000) } }));
    const u = h.podUsage(WEB);
    assert.deepEqual(u, {
      containers: [
        {
          name: "main",
          usage: {
            cpuNanoCores: 250_000_000,
            memoryBytes: 2048,
            timestampMs: T0,
            windowMs: 2000,
          },
        },
      ],
      timestampMs: T0,
      windowMs: 2000,
    });
    h.store(scrape(point(1000, 11), { [WEB]: { main: point(1000, 1.5, 2048, -2000) } }));
    assert.equal(h.podUsage(WEB)?.containers[0]?.usage.cpuNanoCores, 1e9);
  });

  it("measures a restarted container from its new start, not across the runs", () => {
    const h = new UsageHistory();
    h.store(scrape(undefined, { [WEB]: { main: point(0, 100, 1, -60_000) } }));
    h.store(scrape(undefined, { [WEB]: { main: point(10_000, 1, 1, 8000) } }));
    const u = h.podUsage(WEB)?.containers[0]?.usage;
    assert.deepEqual({ cpu: u?.cpuNanoCores, window: u?.windowMs }, { cpu: 5e8, window: 2000 });
  });

  it("reports a pod only when each container has two points", () => {
    const h = new UsageHistory();
    // No start time: the container needs a second scrape.
    h.store(scrape(undefined, { [WEB]: { a: point(0, 1, 1, -1000), b: point(0, 1) } }));
    assert.equal(h.podUsage(WEB), undefined);
    h.store(scrape(undefined, { [WEB]: { a: point(1000, 2, 1, -1000), b: point(1000, 1.5) } }));
    const u = h.podUsage(WEB);
    assert.deepEqual(
      u?.containers.map((c) => [c.name, c.usage.cpuNanoCores]),
      [
        ["a", 1e9],
        ["b", 5e8],
      ],
    );
    assert.equal(h.podUsage(podKey("shop", "other")), undefined);
  });

  it("forgets pods and the node that a scrape no longer has", () => {
    const h = new UsageHistory();
    h.store(scrape(point(0, 1), { [WEB]: { main: point(0, 1, 1, -1000) } }));
    h.store(scrape(undefined, {}));
    assert.equal(h.podUsage(WEB), undefined);
    assert.equal(h.nodeUsage(), undefined);
  });
});
