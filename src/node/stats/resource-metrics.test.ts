import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { register } from "prom-client";
import { ResourceMetrics } from "./resource-metrics.js";
import type { Summary } from "./summary.js";

const MS = 1e6;

const SUMMARY: Summary = {
  node: {
    nodeName: "n1",
    startTime: 1000 * MS,
    cpu: { time: 5000 * MS, usageCoreNanoSeconds: 12.5e9 },
    memory: { time: 5001 * MS, workingSetBytes: 3e9 },
  },
  pods: [
    {
      podRef: { name: "web", namespace: "default", uid: "u1" },
      startTime: 2000 * MS,
      containers: [
        {
          name: "nginx",
          startTime: 2_500_000 * MS,
          cpu: { time: 6000 * MS, usageNanoCores: 5, usageCoreNanoSeconds: 2e9 },
          memory: { time: 6001 * MS, workingSetBytes: 1048576 },
        },
      ],
      cpu: { time: 6000 * MS, usageCoreNanoSeconds: 2e9 },
      memory: { time: 6001 * MS, workingSetBytes: 1048576 },
    },
  ],
};

const samples = (text: string) => text.split("\n").filter((l) => l && !l.startsWith("#"));

describe("resource metrics", () => {
  it("renders the kubelet's series, each CPU and memory sample with its time in ms", async () => {
    const text = await new ResourceMetrics().render(SUMMARY);
    assert.deepEqual(samples(text), [
      'container_cpu_usage_seconds_total{container="nginx",namespace="default",pod="web"} 2 6000',
      'container_memory_working_set_bytes{container="nginx",namespace="default",pod="web"} 1048576 6001',
      'container_start_time_seconds{container="nginx",namespace="default",pod="web"} 2500',
      "node_cpu_usage_seconds_total 12.5 5000",
      "node_memory_working_set_bytes 3000000000 5001",
      'pod_cpu_usage_seconds_total{namespace="default",pod="web"} 2 6000',
      'pod_memory_working_set_bytes{namespace="default",pod="web"} 1048576 6001',
      "resource_scrape_error 0",
      "scrape_error 0",
    ]);
    assert.match(
      text,
      /^# HELP node_cpu_usage_seconds_total \[STABLE\] Cumulative cpu time consumed by the node in core-seconds\n# TYPE node_cpu_usage_seconds_total counter$/m,
    );
    assert.match(text, /^# TYPE container_memory_working_set_bytes gauge$/m);
    assert.match(text, /^# HELP scrape_error \[ALPHA\] \(Deprecated since 1\.29\.0\) 1 if/m);
  });

  it("a failed read is a scrape error with no other family; the next render starts afresh", async () => {
    const m = new ResourceMetrics();
    await m.render(SUMMARY);
    const failed = await m.render(undefined);
    assert.deepEqual(samples(failed), ["resource_scrape_error 1", "scrape_error 1"]);
    assert.doesNotMatch(failed, /node_cpu/, "no node series reading 0");
    const empty = await m.render({ ...SUMMARY, pods: [] });
    assert.doesNotMatch(empty, /container_|pod_/, "the pod is gone: so are its series");
    assert.match(empty, /^node_cpu_usage_seconds_total 12\.5 5000$/m);
  });

  it("writes a series once when two pods share a name (a pod being replaced), and escapes labels", async () => {
    const twin = structuredClone(SUMMARY.pods[0]!);
    twin.podRef.uid = "u2";
    twin.cpu = { time: 7000 * MS, usageCoreNanoSeconds: 9e9 };
    const odd = structuredClone(SUMMARY.pods[0]!);
    odd.podRef = { name: 'we"b', namespace: "default", uid: "u3" };
    const text = await new ResourceMetrics().render({
      ...SUMMARY,
      pods: [SUMMARY.pods[0]!, twin, odd],
    });
    const podCpu = samples(text).filter((l) => l.startsWith("pod_cpu"));
    assert.deepEqual(podCpu, [
      'pod_cpu_usage_seconds_total{namespace="default",pod="web"} 2 6000',
      'pod_cpu_usage_seconds_total{namespace="default",pod="we\\"b"} 2 6000',
    ]);
  });

  it("concurrent renders do not mix, and the process-wide registry is untouched", async () => {
    const m = new ResourceMetrics();
    const other: Summary = { ...SUMMARY, pods: [] };
    const [a, b] = await Promise.all([m.render(SUMMARY), m.render(other)]);
    assert.equal(samples(a).length, 9);
    assert.equal(samples(b).length, 4);
    assert.equal(register.getSingleMetric("node_cpu_usage_seconds_total"), undefined);
    assert.equal(m.contentType, "text/plain; version=0.0.4; charset=utf-8");
  });
});
