/**
 * PodMetrics and NodeMetrics as metrics-server writes them: quantities in
 * canonical form (nano-cores, binary bytes), Go durations, the pod's labels.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { goDuration, nodeMetrics, podMetrics, usageQuantities } from "./metrics-objects.js";

describe("goDuration", () => {
  const cases: [number, string][] = [
    [0, "0s"],
    [1, "1ms"],
    [500, "500ms"],
    [1000, "1s"],
    [1002, "1.002s"],
    [20_064, "20.064s"],
    [15_500, "15.5s"],
    [60_000, "1m0s"],
    [60_500, "1m0.5s"],
    [3_600_000, "1h0m0s"],
    [3_725_010, "1h2m5.01s"],
  ];
  for (const [ms, text] of cases)
    it(`${ms} ms is ${text}`, () => assert.equal(goDuration(ms), text));
});

describe("usage quantities", () => {
  const cases: [number, number, { cpu: string; memory: string }][] = [
    [1_234_567, 12_641_280, { cpu: "1234567n", memory: "12345Ki" }],
    [500_000_000, 41_943_040, { cpu: "500m", memory: "40Mi" }],
    [2_000_000_000, 1 << 30, { cpu: "2", memory: "1Gi" }],
    [1_200_000_000, 1000, { cpu: "1200m", memory: "1000" }],
    [0, 0, { cpu: "0", memory: "0" }],
    [12.7, 1500, { cpu: "12n", memory: "1500" }],
  ];
  for (const [cpuNanoCores, memoryBytes, want] of cases)
    it(`${cpuNanoCores} nano-cores and ${memoryBytes} bytes`, () =>
      assert.deepEqual(usageQuantities({ cpuNanoCores, memoryBytes }), want));
});

describe("the objects", () => {
  const at = Date.parse("2026-12-03T10:00:00.750Z");
  const usage = {
    cpuNanoCores: 250_000_000,
    memoryBytes: 8 << 20,
    timestampMs: at,
    windowMs: 1500,
  };

  it("a PodMetrics has the pod's name, namespace and labels, and each container's usage", () => {
    const pod = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "web", namespace: "shop", labels: { app: "web" }, uid: "u1" },
    };
    const m = podMetrics(
      pod,
      { containers: [{ name: "main", usage }], timestampMs: at, windowMs: 1500 },
      at,
    );
    assert.deepEqual(m, {
      kind: "PodMetrics",
      apiVersion: "metrics.k8s.io/v1beta1",
      metadata: {
        name: "web",
        namespace: "shop",
        creationTimestamp: "2026-12-03T10:00:00Z",
        labels: { app: "web" },
      },
      timestamp: "2026-12-03T10:00:00Z",
      window: "1.5s",
      containers: [{ name: "main", usage: { cpu: "250m", memory: "8Mi" } }],
    });
  });

  it("a NodeMetrics is cluster-scoped, without labels when the node has none", () => {
    const m = nodeMetrics({ apiVersion: "v1", kind: "Node", metadata: { name: "n1" } }, usage, at);
    assert.deepEqual(m.metadata, { name: "n1", creationTimestamp: "2026-12-03T10:00:00Z" });
    assert.deepEqual(m.usage, { cpu: "250m", memory: "8Mi" });
    assert.equal(m.kind, "NodeMetrics");
  });
});
