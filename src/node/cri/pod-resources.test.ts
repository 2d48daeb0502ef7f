import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Container, Pod } from "../../api/index.js";
import {
  CPU_PERIOD_US,
  containerResources,
  milliCpuToQuota,
  milliCpuToShares,
  oomScoreAdj,
  podQosClass,
} from "./pod-resources.js";

type Resources = Container["resources"];
const GiB = 1024 ** 3;

function pod(...resources: Resources[]): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "ns", uid: "u1" },
    spec: { containers: resources.map((r, i) => ({ name: `c${i}`, resources: r })) },
  };
}

describe("containerResources", () => {
  test("limits 500m/64Mi: shares 512, quota 50000 over 100000, memory 67108864", () => {
    const p = pod({ limits: { cpu: "500m", memory: "64Mi" } });
    assert.deepEqual(containerResources(p, p.spec.containers[0]!, 8 * GiB), {
      cpuShares: 512,
      cpuPeriod: 100_000,
      cpuQuota: 50_000,
      memoryLimitInBytes: 67_108_864,
      oomScoreAdj: -997,
    });
  });

  test("no resources: the minimum shares, no quota, no memory limit, BestEffort's score", () => {
    const p = pod(undefined);
    assert.deepEqual(containerResources(p, p.spec.containers[0]!, 8 * GiB), {
      cpuShares: 2,
      cpuPeriod: CPU_PERIOD_US,
      cpuQuota: 0,
      oomScoreAdj: 1000,
    });
  });

  test("requests set shares; limits set the quota and memory", () => {
    const p = pod({ requests: { cpu: "250m", memory: "1Gi" }, limits: { cpu: 2, memory: "2Gi" } });
    const r = containerResources(p, p.spec.containers[0]!, 4 * GiB);
    assert.equal(r.cpuShares, 256);
    assert.equal(r.cpuQuota, 200_000);
    assert.equal(r.memoryLimitInBytes, 2 * GiB);
    assert.equal(r.oomScoreAdj, 750, "Burstable: 1000 - 1000 * 1Gi / 4Gi");
  });

  test("a cpu limit alone makes the request, so the shares, equal to it", () => {
    const p = pod({ limits: { cpu: "1500m" } });
    const r = containerResources(p, p.spec.containers[0]!, GiB);
    assert.equal(r.cpuShares, 1536);
    assert.equal(r.cpuQuota, 150_000);
    assert.equal(r.memoryLimitInBytes, undefined);
  });
});

describe("cpu conversions", () => {
  test("shares: 1024 per cpu, floor 2, cap 262144", () => {
    assert.equal(milliCpuToShares(0), 2);
    assert.equal(milliCpuToShares(1), 2);
    assert.equal(milliCpuToShares(100), 102);
    assert.equal(milliCpuToShares(1000), 1024);
    assert.equal(milliCpuToShares(1_000_000), 262_144);
  });
  test("quota: 0 without a limit, at least 1 ms", () => {
    assert.equal(milliCpuToQuota(0), 0);
    assert.equal(milliCpuToQuota(1), 1000);
    assert.equal(milliCpuToQuota(10), 1000);
    assert.equal(milliCpuToQuota(11), 1100);
    assert.equal(milliCpuToQuota(500, 50_000), 25_000);
  });
});

describe("podQosClass", () => {
  test("BestEffort without any request or limit, zero ones included", () => {
    assert.equal(podQosClass(pod(undefined, {})), "BestEffort");
    assert.equal(podQosClass(pod({ requests: { cpu: "0" } })), "BestEffort");
  });
  test("Guaranteed when every container limits cpu and memory and requests equal limits", () => {
    assert.equal(podQosClass(pod({ limits: { cpu: 1, memory: "1Gi" } })), "Guaranteed");
    assert.equal(
      podQosClass(
        pod(
          { limits: { cpu: "1", memory: "1Gi" }, requests: { cpu: "1000m", memory: "1024Mi" } },
          { limits: { cpu: "100m", memory: "10Mi" } },
        ),
      ),
      "Guaranteed",
      "equal quantities, written differently",
    );
  });
  test("Burstable otherwise", () => {
    assert.equal(podQosClass(pod({ limits: { cpu: 1 } })), "Burstable");
    assert.equal(podQosClass(pod({ requests: { memory: "1Gi" } })), "Burstable");
    assert.equal(
      podQosClass(pod({ limits: { cpu: 1, memory: "1Gi" }, requests: { cpu: "500m" } })),
      "Burstable",
    );
    assert.equal(podQosClass(pod({ limits: { cpu: 1, memory: "1Gi" } }, undefined)), "Burstable");
  });
  test("init containers count", () => {
    const p = pod({ limits: { cpu: 1, memory: "1Gi" } });
    p.spec.initContainers = [{ name: "init" }];
    assert.equal(podQosClass(p), "Burstable");
  });
});

describe("oomScoreAdj", () => {
  test("Burstable stays within [3, 999]", () => {
    const big = pod({ requests: { memory: "8Gi" } });
    assert.equal(oomScoreAdj(big, big.spec.containers[0]!, 4 * GiB), 3);
    const tiny = pod({ requests: { cpu: "10m" } });
    assert.equal(oomScoreAdj(tiny, tiny.spec.containers[0]!, 4 * GiB), 999);
  });
});
