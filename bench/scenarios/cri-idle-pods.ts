/**
 * Idle pods on containers (`--only criIdlePods`): on `hearth up --runtime
 * cri` (apiserver, controllers, scheduler and node agent in one process), the
 * CPU and memory over a window of the hearth process, of its containerd and
 * of containerd's shims (summed) — first with no pod (the baseline), then, in
 * the same run, with `pods` sleeping busybox pods all Ready. The containers'
 * own processes (pause, sh, sleep) are not counted. Processes are found from
 * the data directory (cri-hearth.ts), each window after a settling pause.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type CriGroupResult, containerdPid, onCriHearth, shimPids } from "../cri-hearth.js";
import { BUSYBOX, sleeperPod } from "../cri-pod-specs.js";
import { closedLoop, type LoadResult } from "../load.js";
import { type GroupWindow, measureProcesses } from "../proc-usage.js";
import { round } from "../stats.js";

export interface CriIdlePodsPlan {
  pods: number;
  windowMs: number;
  /** Pause before each window (start-up work, pods just started). */
  settleMs: number;
  createConcurrency: number;
  readyDeadlineMs: number;
}

/** One window: the hearth process, containerd alone, and its shims summed. */
export type CriFootprint = Record<"hearth" | "containerd" | "shims", GroupWindow>;

export interface CriIdlePods {
  pods: number;
  idle: CriFootprint;
  loaded: CriFootprint;
  /** (loaded − idle) ÷ pods, per process group. */
  perPod: Record<keyof CriFootprint, { cpuPercent: number; rssKB: number; pssKB: number }>;
  create: LoadResult;
  /** From the first POST to the last pod seen Ready. */
  allReadyMs: number;
  ready: number;
}

export type CriIdlePodsResult = CriGroupResult<CriIdlePods>;

const NAMESPACE = "default";

export function criIdlePods(dir: string, plan: CriIdlePodsPlan): Promise<CriIdlePodsResult> {
  return onCriHearth(dir, "cri-idle-pods", [BUSYBOX], async (ch, w) => {
    const window = () =>
      measureProcesses(
        { hearth: [ch.pid], containerd: [containerdPid(ch.layout)], shims: shimPids(ch.layout) },
        plan.windowMs,
      );
    await sleep(plan.settleMs);
    const idle = await window();

    const names = Array.from({ length: plan.pods }, (_, i) => `idle-${i}`);
    const start = performance.now();
    const create = await closedLoop(plan.createConcurrency, plan.pods, async (i) => {
      const res = await ch.client.request(
        "POST",
        `/api/v1/namespaces/${NAMESPACE}/pods`,
        JSON.stringify(sleeperPod(names[i]!)),
      );
      if (res.status !== 201) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 200)}`);
    });
    await w.until(() => names.every((n) => w.readyAt.has(n)), plan.readyDeadlineMs);
    const readyTimes = names.flatMap((n) => w.readyAt.get(n) ?? []);
    await sleep(plan.settleMs);
    const loaded = await window();
    const per = (a: number, b: number, scale = 1) => round(((b - a) / plan.pods) * scale, 3);
    const perGroup = (k: keyof CriFootprint) => ({
      cpuPercent: per(idle[k].cpuPercent, loaded[k].cpuPercent),
      rssKB: round(per(idle[k].rssMB, loaded[k].rssMB, 1000), 0),
      pssKB: round(per(idle[k].pssMB, loaded[k].pssMB, 1000), 0),
    });
    return {
      pods: plan.pods,
      idle,
      loaded,
      perPod: {
        hearth: perGroup("hearth"),
        containerd: perGroup("containerd"),
        shims: perGroup("shims"),
      },
      create,
      allReadyMs: round(Math.max(start, ...readyTimes) - start, 1),
      ready: readyTimes.length,
    };
  });
}
