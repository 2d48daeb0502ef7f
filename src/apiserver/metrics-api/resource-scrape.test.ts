/**
 * Reading the agent's `/metrics/resource` (the kubelet's resource metrics)
 * into points: CPU seconds to core-nanoseconds at the CPU sample's time,
 * working sets, start times, escaped labels; incomplete series dropped.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSamples, podKey, readResourceMetrics } from "./resource-scrape.js";

const TEXT = `# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds
# TYPE container_cpu_usage_seconds_total counter
container_cpu_usage_seconds_total{container="main",namespace="shop",pod="web"} 1.5 1800000001000
container_cpu_usage_seconds_total{container="side",namespace="shop",pod="web"} 0.25 1800000001200
container_cpu_usage_seconds_total{container="lonely",namespace="shop",pod="half"} 1 1800000001000
# HELP container_memory_working_set_bytes [STABLE] Current working set of the container in bytes
# TYPE container_memory_working_set_bytes gauge
container_memory_working_set_bytes{container="main",namespace="shop",pod="web"} 4096 1800000001000
container_memory_working_set_bytes{container="side",namespace="shop",pod="web"} 8192 1800000001200
# TYPE container_start_time_seconds gauge
container_start_time_seconds{container="main",namespace="shop",pod="web"} 1800000000.5
# TYPE node_cpu_usage_seconds_total counter
node_cpu_usage_seconds_total 1234.5 1800000001100
# TYPE node_memory_working_set_bytes gauge
node_memory_working_set_bytes 1.073741824e+09 1800000001100
# TYPE resource_scrape_error gauge
resource_scrape_error 0
`;

describe("resource metrics text", () => {
  it("reads samples with labels, values and timestamps", () => {
    assert.deepEqual(
      parseSamples('a_b{x="q\\"uote",y="n\\\\l"} 2.5e3 17\nplain 1\n# c\nbad line'),
      [
        { name: "a_b", labels: { x: 'q"uote', y: "n\\l" }, value: 2500, timestampMs: 17 },
        { name: "plain", labels: {}, value: 1 },
      ],
    );
  });

  it("turns the kubelet's series into node and container points", () => {
    const s = readResourceMetrics(TEXT);
    assert.deepEqual(s.node, {
      timestampMs: 1800000001100,
      cpuNanoSeconds: 1234.5e9,
      memoryBytes: 1 << 30,
    });
    const web = s.pods.get(podKey("shop", "web"));
    assert.deepEqual(web?.get("main"), {
      timestampMs: 1800000001000,
      startMs: 1800000000500,
      cpuNanoSeconds: 1.5e9,
      memoryBytes: 4096,
    });
    assert.deepEqual(web?.get("side"), {
      timestampMs: 1800000001200,
      cpuNanoSeconds: 0.25e9,
      memoryBytes: 8192,
    });
    // CPU without memory is no point, and a pod of no points is no pod.
    assert.equal(s.pods.has(podKey("shop", "half")), false);
  });

  it("has no node point when the agent could not read the node (only the error gauges)", () => {
    const s = readResourceMetrics("resource_scrape_error 1\nscrape_error 1\n");
    assert.equal(s.node, undefined);
    assert.equal(s.pods.size, 0);
  });
});
