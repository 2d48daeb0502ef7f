/**
 * The pod runtime's `stats` on CRI: the running containers of each pod's
 * sandbox (ListContainers) with their figures (ListContainerStats), as the
 * kubelet's CRI stats provider reads them. Pod figures come from the
 * containers (summary.ts adds them up): containerd 1.6 implements
 * ListPodSandboxStats but reads it from the sandbox's cgroup parent, and
 * Hearth's sandboxes have none (it answers "cgroupPath is empty"). The
 * runtime's own `usageNanoCores` is not used: containerd computes it over
 * the interval since whichever client asked last (0 on its first answer);
 * the agent computes rates from its own two samples. A container created
 * after the listing has no figures yet and is left out until the next read.
 */
import type { ContainerStats, CriClient, Container as CriContainer } from "./cri/index.js";
import { CONTAINER_NAME_LABEL } from "./cri/index.js";
import type { PodState } from "./pod-state.js";
import type { ContainerUsage, MemorySample, PodUsage } from "./stats/index.js";

const CALL = { timeoutMs: 10_000 };

function memoryOf(m: NonNullable<ContainerStats["memory"]>): MemorySample | undefined {
  if (!m.workingSetBytes) return undefined;
  return {
    timeNs: m.timestamp,
    workingSetBytes: m.workingSetBytes.value,
    // containerd answers 0 available for a container without a limit; kube has the field only with one.
    ...(m.availableBytes?.value ? { availableBytes: m.availableBytes.value } : {}),
    ...(m.usageBytes ? { usageBytes: m.usageBytes.value } : {}),
    ...(m.rssBytes ? { rssBytes: m.rssBytes.value } : {}),
    ...(m.pageFaults ? { pageFaults: m.pageFaults.value } : {}),
    ...(m.majorPageFaults ? { majorPageFaults: m.majorPageFaults.value } : {}),
  };
}

function usageOf(c: CriContainer, s: ContainerStats): ContainerUsage {
  const cpu = s.cpu?.usageCoreNanoSeconds
    ? { timeNs: s.cpu.timestamp, usageCoreNanoSeconds: s.cpu.usageCoreNanoSeconds.value }
    : undefined;
  const memory = s.memory ? memoryOf(s.memory) : undefined;
  return {
    name: c.labels[CONTAINER_NAME_LABEL] ?? c.metadata?.name ?? "",
    id: c.id,
    startTimeNs: c.createdAt,
    ...(cpu ? { cpu } : {}),
    ...(memory ? { memory } : {}),
  };
}

/** The two calls the stats need. */
export type StatsClient = Pick<CriClient, "listContainers" | "listContainerStats">;

/** What the running containers of `pods` use now, per pod with at least one. */
export async function criPodUsage(cri: StatsClient, pods: PodState[]): Promise<PodUsage[]> {
  const [running, stats] = await Promise.all([
    cri.listContainers({ state: { state: "CONTAINER_RUNNING" } }, CALL),
    cri.listContainerStats({}, CALL),
  ]);
  const statsById = new Map(stats.flatMap((s) => (s.attributes ? [[s.attributes.id, s]] : [])));
  const bySandbox = new Map<string, ContainerUsage[]>();
  for (const c of running) {
    const s = statsById.get(c.id);
    if (!s) continue;
    const list = bySandbox.get(c.podSandboxId) ?? [];
    list.push(usageOf(c, s));
    bySandbox.set(c.podSandboxId, list);
  }
  return pods.flatMap((p) => {
    const containers = p.sandboxId ? bySandbox.get(p.sandboxId) : undefined;
    return containers ? [{ uid: p.uid, containers }] : [];
  });
}
