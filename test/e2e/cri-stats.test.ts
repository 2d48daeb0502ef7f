/**
 * Resource usage on containers, read as the apiserver's proxy would read it:
 * `hearth up --runtime cri` runs a busybox pod burning CPU and one holding
 * about 40 MiB; the node agent's API (its address and port taken from the
 * Node object, over HTTPS with the apiserver's client certificate, as the
 * pods/log proxy reaches it) serves `/stats/summary`
 * and `/metrics/resource`. The CPU pod's usage rises between two reads (and
 * the summary's second read has a rate), the memory pod's working set is at
 * least 30 MiB, the node has figures, and a read without the certificate is a 401.
 * Skips unless root with containerd and the built images.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { SummaryJson } from "../../src/node/index.js";
import { withCriHearth } from "../support/cri-hearth.js";
import { criSkipReason } from "../support/cri-node.js";
import { waitFor } from "../support/hearth-process.js";
import { type NodeApi, nodeApi, nodeApiGet } from "../support/node-api.js";

const POD_CIDR = "10.246.0.0/24";
const SERVICE_CIDR = "10.247.0.0/16";
const MiB = 1 << 20;

const pod = (name: string, container: string, script: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: {
    terminationGracePeriodSeconds: 1,
    containers: [
      {
        name: container,
        image: "busybox:1.35",
        command: ["sh", "-c", script],
        // Half a core: the burner shares two cores with other tests.
        resources: { limits: { cpu: "500m", memory: "128Mi" } },
      },
    ],
  },
});

const PODS = {
  apiVersion: "v1",
  kind: "List",
  items: [
    pod("cpu-burner", "burn", "while :; do :; done"),
    // A 40 MiB shell variable, held while the shell waits.
    pod(
      "memory-holder",
      "hold",
      "x=$(head -c 41943040 /dev/zero | tr '\\0' a); while :; do sleep 3600; done",
    ),
  ],
};

async function read(e: NodeApi, path: string, anonymous = false) {
  return nodeApiGet(e, path, { anonymous });
}

async function summary(e: NodeApi): Promise<SummaryJson> {
  const res = await read(e, "/stats/summary");
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.text) as SummaryJson;
}

const podOf = (s: SummaryJson, name: string) => s.pods.find((p) => p.podRef.name === name);

/** The value and timestamp of one series of a Prometheus text, by its exact labels. */
function sample(text: string, series: string): { value: number; timestampMs?: number } | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  if (!line) return undefined;
  const [, value, ts] = line.split(" ");
  return { value: Number(value), ...(ts ? { timestampMs: Number(ts) } : {}) };
}

describe("resource usage of containers: /stats/summary and /metrics/resource", {
  skip: criSkipReason(),
}, () => {
  test("a CPU burner's usage rises between reads, a 40 MiB holder's working set is at least 30 MiB", async () => {
    await withCriHearth(
      { prefix: "hearth-cristats-", podCIDR: POD_CIDR, serviceCIDR: SERVICE_CIDR },
      async (h) => {
        await h.kubectlOk(["apply", "-f", "-"], { input: JSON.stringify(PODS) });
        await h.kubectlOk(
          ["wait", "--for=condition=Ready", "pod", "cpu-burner", "memory-holder", "--timeout=120s"],
          { timeoutMs: 130_000 },
        );
        const agent = await nodeApi(h);
        assert.equal((await read(agent, "/stats/summary", true)).status, 401);
        assert.equal((await read(agent, "/metrics/resource", true)).status, 401);

        // The summary: the burner's CPU time rises, and from the second read on it has a rate.
        const first = await waitFor("the burner in the summary", async () => {
          const s = await summary(agent);
          return podOf(s, "cpu-burner")?.cpu ? s : undefined;
        });
        const before = podOf(first, "cpu-burner")!;
        const after = await waitFor(
          "the burner's CPU time to rise",
          async () => {
            const p = podOf(await summary(agent), "cpu-burner");
            const grown = p?.cpu && p.cpu.usageCoreNanoSeconds > before.cpu!.usageCoreNanoSeconds;
            return grown && p.cpu!.usageNanoCores !== undefined ? p : undefined;
          },
          60_000,
        );
        assert.ok(after.cpu!.usageNanoCores! > 0, `the burner burns: ${JSON.stringify(after.cpu)}`);
        assert.equal(after.containers[0]!.name, "burn");
        assert.ok(after.containers[0]!.cpu!.usageCoreNanoSeconds > 0);
        assert.match(after.cpu!.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.equal(after.podRef.namespace, "default");

        const held = await waitFor(
          "the holder's working set to reach 30 MiB",
          async () => {
            const s = await summary(agent);
            const p = podOf(s, "memory-holder");
            return (p?.memory?.workingSetBytes ?? 0) >= 30 * MiB ? s : undefined;
          },
          60_000,
        );
        const holder = podOf(held, "memory-holder")!;
        assert.ok(holder.containers[0]!.memory!.workingSetBytes >= 30 * MiB);
        assert.ok(held.node.cpu!.usageCoreNanoSeconds > 0 && held.node.memory!.workingSetBytes > 0);
        assert.equal(typeof held.node.cpu!.usageNanoCores, "number", "the node has a rate too");

        // The resource metrics: the same figures, each sample with its time.
        const scrape = async () => {
          const res = await read(agent, "/metrics/resource");
          assert.equal(res.status, 200);
          assert.match(res.contentType, /^text\/plain; version=0\.0\.4/);
          return res.text;
        };
        const burnerCpu = 'pod_cpu_usage_seconds_total{namespace="default",pod="cpu-burner"}';
        const text1 = await scrape();
        const cpu1 = sample(text1, burnerCpu);
        assert.ok(cpu1?.timestampMs, `the burner's CPU series, timed:\n${text1}`);
        const cpu2 = await waitFor(
          "the burner's CPU counter to rise between scrapes",
          async () => {
            const s = sample(await scrape(), burnerCpu);
            return s && s.value > cpu1.value ? s : undefined;
          },
          60_000,
        );
        assert.ok(cpu2.timestampMs! > cpu1.timestampMs!);
        const hold = sample(
          text1,
          'container_memory_working_set_bytes{container="hold",namespace="default",pod="memory-holder"}',
        );
        assert.ok(hold && hold.value >= 30 * MiB, `the holder's working set:\n${text1}`);
        assert.ok(sample(text1, "node_cpu_usage_seconds_total")!.value > 0);
        assert.ok(sample(text1, "node_memory_working_set_bytes")!.value > 0);
        const started = sample(
          text1,
          'container_start_time_seconds{container="burn",namespace="default",pod="cpu-burner"}',
        );
        assert.ok(
          started && Math.abs(started.value - Date.now() / 1000) < 3600,
          "started this hour",
        );
        assert.equal(sample(text1, "resource_scrape_error")?.value, 0);

        assert.equal(await h.stop(), 0, "a clean stop");
      },
    );
  });
});
