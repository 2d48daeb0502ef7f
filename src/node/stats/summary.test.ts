import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { NodeUsage } from "./node-usage.js";
import { type MeasuredPod, SummaryBuilder, summaryJson } from "./summary.js";

const S = 1e9;
const T0 = Date.UTC(2026, 11, 3, 6, 0, 0) * 1e6;

function node(at: number, cpuSeconds: number): NodeUsage {
  return {
    startTimeNs: T0 - 3600 * S,
    cpu: { timeNs: at, usageCoreNanoSeconds: cpuSeconds * S },
    memory: { timeNs: at, workingSetBytes: 4e9, usageBytes: 6e9, availableBytes: 4e9 },
  };
}

/** A pod with a CPU burner and a memory holder, `t` seconds after T0. */
function pod(t: number): MeasuredPod {
  const at = T0 + t * S;
  return {
    ref: { name: "web", namespace: "default", uid: "u1" },
    startTimeNs: T0 - 60 * S,
    usage: {
      uid: "u1",
      containers: [
        {
          name: "burn",
          id: "c1",
          startTimeNs: T0 - 50 * S,
          cpu: { timeNs: at, usageCoreNanoSeconds: t * 0.9 * S },
          memory: { timeNs: at, workingSetBytes: 1 << 20, usageBytes: 2 << 20 },
        },
        {
          name: "hold",
          id: "c2",
          startTimeNs: T0 - 40 * S,
          cpu: { timeNs: at - 0.5 * S, usageCoreNanoSeconds: t * 0.1 * S },
          memory: { timeNs: at - 0.5 * S, workingSetBytes: 40 << 20, rssBytes: 39 << 20 },
        },
      ],
    },
  };
}

describe("Summary", () => {
  it("the first read has CPU time but no rates; the second has each rate and the pod's sum", () => {
    const b = new SummaryBuilder("n1");
    const first = b.build(node(T0, 100), [pod(10)], true);
    assert.equal(first.node.cpu?.usageNanoCores, undefined);
    assert.equal(first.node.cpu?.usageCoreNanoSeconds, 100 * S);
    assert.equal(first.pods[0]!.containers[0]!.cpu?.usageNanoCores, undefined);
    assert.equal(first.pods[0]!.cpu?.usageNanoCores, undefined);

    const second = b.build(node(T0 + 10 * S, 115), [pod(20)], true);
    assert.equal(second.node.cpu?.usageNanoCores, 1.5e9, "15 core-seconds in 10 s");
    const [burn, hold] = second.pods[0]!.containers;
    assert.equal(burn!.cpu?.usageNanoCores, 900_000_000);
    assert.equal(hold!.cpu?.usageNanoCores, 100_000_000);
    const p = second.pods[0]!;
    assert.equal(p.cpu?.usageNanoCores, 1e9, "the pod's rate is its containers' sum");
    assert.equal(p.cpu?.usageCoreNanoSeconds, 20 * S);
    assert.equal(p.cpu?.time, T0 + 20 * S, "timed at the newest container sample");
    assert.deepEqual(p.memory, {
      time: T0 + 20 * S,
      workingSetBytes: 41 << 20,
      usageBytes: 2 << 20,
      rssBytes: 39 << 20,
    });
  });

  it("a read without updating reports the last rates; a pod measured as a whole keeps its own figures", () => {
    const b = new SummaryBuilder("n1");
    b.build(node(T0, 100), [pod(10)], true);
    b.build(node(T0 + 10 * S, 110), [pod(20)], true);
    const read = b.build(node(T0 + 11 * S, 120), [pod(21)], false);
    assert.equal(read.node.cpu?.usageNanoCores, 1e9, "the rate of the last update");
    assert.equal(read.node.cpu?.usageCoreNanoSeconds, 120 * S, "the counter as read now");

    const whole = pod(30);
    whole.usage.cpu = { timeNs: T0 + 30 * S, usageCoreNanoSeconds: 50 * S };
    whole.usage.memory = { timeNs: T0 + 30 * S, workingSetBytes: 99 };
    const s = b.build(node(T0 + 20 * S, 130), [whole], true);
    assert.equal(s.pods[0]!.cpu?.usageCoreNanoSeconds, 50 * S);
    assert.equal(s.pods[0]!.memory?.workingSetBytes, 99);
  });

  it("a new run of a container is a new series: no rate until its second sample", () => {
    const b = new SummaryBuilder("n1");
    b.build(node(T0, 1), [pod(10)], true);
    const restarted = pod(20);
    restarted.usage.containers[0]!.id = "c1-second-run";
    const s = b.build(node(T0 + S, 2), [restarted], true);
    assert.equal(s.pods[0]!.containers[0]!.cpu?.usageNanoCores, undefined);
    assert.equal(s.pods[0]!.cpu?.usageNanoCores, undefined, "no pod rate while one is unknown");
  });

  it("is written as the kubelet's JSON: RFC 3339 times in whole seconds", () => {
    const b = new SummaryBuilder("n1");
    const json = JSON.parse(summaryJson(b.build(node(T0 + 0.7 * S, 1), [pod(10)], true)));
    assert.equal(json.node.nodeName, "n1");
    assert.equal(json.node.startTime, "2026-12-03T05:00:00Z");
    assert.equal(json.node.cpu.time, "2026-12-03T06:00:00Z");
    assert.equal(json.node.memory.availableBytes, 4e9);
    assert.deepEqual(json.pods[0].podRef, { name: "web", namespace: "default", uid: "u1" });
    assert.equal(json.pods[0].startTime, "2026-12-03T05:59:00Z");
    assert.equal(json.pods[0].containers[1].name, "hold");
    assert.equal(json.pods[0].containers[1].startTime, "2026-12-03T05:59:20Z");
    assert.equal(json.pods[0].containers[1].memory.time, "2026-12-03T06:00:09Z");
    assert.equal(json.pods[0].containers[1].memory.workingSetBytes, 40 << 20);
  });
});
