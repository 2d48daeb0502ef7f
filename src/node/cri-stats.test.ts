import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ContainerFilter, ContainerStats, Container as CriContainer } from "./cri/index.js";
import { criPodUsage, type StatsClient } from "./cri-stats.js";
import type { PodState } from "./pod-state.js";

const value = (v: number) => ({ value: v });

function container(id: string, sandbox: string, name: string): CriContainer {
  return {
    id,
    podSandboxId: sandbox,
    metadata: { name, attempt: 0 },
    image: null,
    imageRef: "",
    state: "CONTAINER_RUNNING",
    createdAt: 1_700_000_000e9,
    labels: { "io.kubernetes.container.name": name },
    annotations: {},
  };
}

function stats(id: string, cpuNs: number, workingSet: number): ContainerStats {
  return {
    attributes: { id, metadata: null, labels: {} },
    cpu: { timestamp: 5e18, usageCoreNanoSeconds: value(cpuNs), usageNanoCores: value(0) },
    memory: {
      timestamp: 5e18 + 1,
      workingSetBytes: value(workingSet),
      availableBytes: value(0),
      usageBytes: value(workingSet + 10),
      rssBytes: value(workingSet - 10),
      pageFaults: value(7),
      majorPageFaults: null,
    },
    writableLayer: null,
  };
}

const state = (uid: string, sandboxId?: string): PodState => ({
  version: 1,
  uid,
  namespace: "default",
  name: uid,
  podIP: "",
  ...(sandboxId ? { sandboxId } : {}),
  startTime: "2026-12-03T06:00:00Z",
  terminationGracePeriodSeconds: 30,
  containers: {},
});

describe("CRI stats as pod usage", () => {
  const filters: ContainerFilter[] = [];
  const client: StatsClient = {
    listContainers: async (filter) => {
      filters.push(filter);
      return [
        container("a1", "sb-a", "web"),
        container("a2", "sb-a", "sidecar"),
        container("b1", "sb-b", "new"),
        container("x1", "sb-x", "other"),
      ];
    },
    // b1 was created after the stats were listed: it has none yet.
    listContainerStats: async () => [
      stats("a1", 3e9, 1 << 20),
      stats("a2", 1e9, 2 << 20),
      stats("x1", 1, 1),
    ],
  };

  it("joins the running containers with their figures, per pod sandbox the agent knows", async () => {
    const usage = await criPodUsage(client, [state("a", "sb-a"), state("b", "sb-b"), state("c")]);
    assert.deepEqual(filters, [{ state: { state: "CONTAINER_RUNNING" } }], "running ones only");
    assert.deepEqual(
      usage.map((u) => [u.uid, u.containers.map((c) => c.name)]),
      [["a", ["web", "sidecar"]]],
      "b's container has no figures yet, c has no sandbox, sb-x is not a pod of the agent",
    );
    const [web] = usage[0]!.containers;
    assert.deepEqual(web, {
      name: "web",
      id: "a1",
      startTimeNs: 1_700_000_000e9,
      cpu: { timeNs: 5e18, usageCoreNanoSeconds: 3e9 },
      memory: {
        timeNs: 5e18 + 1,
        workingSetBytes: 1 << 20,
        usageBytes: (1 << 20) + 10,
        rssBytes: (1 << 20) - 10,
        pageFaults: 7,
      },
    });
    assert.equal(usage[0]!.cpu, undefined, "the pod's own figures are left to the summary's sums");
  });
});
