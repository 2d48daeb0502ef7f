/**
 * A container's cgroup values from its `resources`, as the kubelet computes
 * them (kuberuntime_container_linux.go, helpers_linux.go, qos/policy.go) for
 * cgroup v1 on cgroupfs: cpu shares from the request, a CFS quota from the
 * limit, the memory limit, and an OOM score adjustment by QoS class.
 */
import { totalmem } from "node:os";
import {
  type Container,
  type Pod,
  parseQuantity,
  quantityMilliValue,
  quantityValue,
} from "../../api/index.js";
import type { LinuxContainerResources } from "./cri-types.js";

type Quantity = string | number;

export type QosClass = "Guaranteed" | "Burstable" | "BestEffort";

/** kubelet's CFS period, 100 ms in µs; its minimum quota is 1 ms. */
export const CPU_PERIOD_US = 100_000;
const MIN_QUOTA_US = 1_000;
const MIN_SHARES = 2;
const MAX_SHARES = 262_144;
const SHARES_PER_CPU = 1024;
const GUARANTEED_OOM_SCORE_ADJ = -997;
const BEST_EFFORT_OOM_SCORE_ADJ = 1000;

type Resource = "cpu" | "memory";

/**
 * A container's request for `resource`: the request, else the limit — what
 * kube-apiserver defaults a missing request to (Hearth's apiserver does not
 * write that default, so it is applied here, as the kubelet also does for
 * cpu).
 */
export function effectiveRequest(c: Container, resource: Resource): Quantity | undefined {
  return c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource];
}

function positive(q: Quantity | undefined): bigint | undefined {
  if (q === undefined) return undefined;
  const v = parseQuantity(q);
  return v > 0n ? v : undefined;
}

/** kube's ComputePodQOS over cpu and memory, with requests defaulted from limits. */
export function podQosClass(pod: Pod): QosClass {
  const requests = new Map<Resource, bigint>();
  const limits = new Map<Resource, bigint>();
  const add = (m: Map<Resource, bigint>, r: Resource, v: bigint) => m.set(r, (m.get(r) ?? 0n) + v);
  let guaranteed = true;
  for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
    let limited = 0;
    for (const r of ["cpu", "memory"] as const) {
      const request = positive(effectiveRequest(c, r));
      if (request !== undefined) add(requests, r, request);
      const limit = positive(c.resources?.limits?.[r]);
      if (limit !== undefined) {
        add(limits, r, limit);
        limited++;
      }
    }
    if (limited < 2) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return "BestEffort";
  for (const [r, v] of requests) if (limits.get(r) !== v) guaranteed = false;
  return guaranteed && requests.size === limits.size ? "Guaranteed" : "Burstable";
}

/** cpu.shares for a request in millicores: 1024 per CPU, at least 2 (also for no request). */
export function milliCpuToShares(milli: number): number {
  if (milli <= 0) return MIN_SHARES;
  const shares = Math.floor((milli * SHARES_PER_CPU) / 1000);
  return Math.min(Math.max(shares, MIN_SHARES), MAX_SHARES);
}

/** cfs_quota_us for a limit in millicores over `period` µs: 0 (unlimited) without one, else at least 1 ms. */
export function milliCpuToQuota(milli: number, period = CPU_PERIOD_US): number {
  if (milli <= 0) return 0;
  return Math.max(Math.floor((milli * period) / 1000), MIN_QUOTA_US);
}

/**
 * kubelet's GetContainerOOMScoreAdjust: Guaranteed -997, BestEffort 1000,
 * Burstable 1000 − 1000·memoryRequest/capacity clamped to [3, 999].
 * (Hearth's containerd runs with restrict_oom_score_adj, so it raises a value
 * below its own score to that; the kubelet's value is still what is asked.)
 */
export function oomScoreAdj(pod: Pod, c: Container, memoryCapacity: number): number {
  const qos = podQosClass(pod);
  if (qos === "Guaranteed") return GUARANTEED_OOM_SCORE_ADJ;
  if (qos === "BestEffort") return BEST_EFFORT_OOM_SCORE_ADJ;
  const request = effectiveRequest(c, "memory");
  const bytes = request === undefined ? 0 : Number(quantityValue(request));
  const adj = 1000 - Math.floor((1000 * bytes) / memoryCapacity);
  if (adj < 1000 + GUARANTEED_OOM_SCORE_ADJ) return 1000 + GUARANTEED_OOM_SCORE_ADJ;
  if (adj === BEST_EFFORT_OOM_SCORE_ADJ) return adj - 1;
  return adj;
}

function milli(q: Quantity | undefined): number {
  return q === undefined ? 0 : Number(quantityMilliValue(q));
}

/**
 * The container's cgroup values. cpuPeriod is always set and cpuQuota is 0
 * without a cpu limit, as the kubelet sends them; memoryLimitInBytes only
 * with a memory limit. `memoryCapacity` (the node's memory, for Burstable
 * OOM scores) defaults to this machine's.
 */
export function containerResources(
  pod: Pod,
  c: Container,
  memoryCapacity: number = totalmem(),
): LinuxContainerResources {
  const limits = c.resources?.limits ?? {};
  const resources: LinuxContainerResources = {
    cpuShares: milliCpuToShares(milli(effectiveRequest(c, "cpu"))),
    cpuPeriod: CPU_PERIOD_US,
    cpuQuota: milliCpuToQuota(milli(limits.cpu)),
    oomScoreAdj: oomScoreAdj(pod, c, memoryCapacity),
  };
  const memory = limits.memory === undefined ? 0 : Number(quantityValue(limits.memory));
  if (memory > 0) resources.memoryLimitInBytes = memory;
  return resources;
}
