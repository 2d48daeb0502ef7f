/**
 * Node-agent footprint: `hearth up --no-node-agent` serves the API and a
 * separate `hearth node` process is the agent, so its /proc numbers are its own
 * (the pods' processes are not counted: they are other processes). The agent's
 * CPU and RSS are measured over a window with no pods (the baseline), then
 * again, in the same agent, once `pods` trivial sleeping pods bound to it are
 * all Ready; each window follows a short settling pause.
 */
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { clientFromKubeconfig, type HttpClient } from "../../src/client/index.js";
import { startHearth } from "../../test/support/hearth-process.js";
import { killRecorded, stopAndClean, testPodCidr } from "../../test/support/node-pods.js";
import { closedLoop, type LoadResult } from "../load.js";
import { type NodeProcess, startNodeProcess } from "../node-process.js";
import { benchPod } from "../pod-specs.js";
import { type PodWatch, watchPods } from "../pod-watch.js";
import { measureProcess, type ProcessWindow } from "../proc-usage.js";
import { round } from "../stats.js";

export interface FootprintPlan {
  pods: number;
  windowMs: number;
  /** Pause before each window (start-up work, pods just started). */
  settleMs: number;
  /** Concurrent POSTs while creating the pods. */
  createConcurrency: number;
  readyDeadlineMs: number;
}

export interface FootprintResult {
  pods: number;
  /** The agent with no pods. */
  idle: ProcessWindow;
  /** The same agent with every pod running. */
  loaded: ProcessWindow;
  perPod: { cpuPercent: number; rssKB: number };
  create: LoadResult;
  /** From the first POST to the last pod seen Ready. */
  allReadyMs: number;
  ready: number;
  /** Pod processes still alive after the agent stopped (then killed); should be 0. */
  leftoverProcesses: number;
}

const NAMESPACE = "default";
const NODE_NAME = "bench-node";
/** The pods' grace period (pod-specs.ts) plus margin for stopping them all. */
const AGENT_STOP_DEADLINE_MS = 30_000;

export async function agentFootprint(dir: string, plan: FootprintPlan): Promise<FootprintResult> {
  const h = await startHearth({
    dataDir: join(dir, "footprint-api"),
    extraArgs: ["--no-node-agent"],
    timeoutMs: 60_000,
  });
  const nodeDir = join(dir, "footprint-node");
  const stop = new AbortController();
  let node: NodeProcess | undefined;
  let client: HttpClient | undefined;
  let watch: PodWatch | undefined;
  let leftoverProcesses = 0;
  let result: Omit<FootprintResult, "leftoverProcesses">;
  try {
    node = await startNodeProcess({
      kubeconfig: h.kubeconfig,
      dataDir: nodeDir,
      podCidr: testPodCidr(),
      nodeName: NODE_NAME,
    });
    client = await clientFromKubeconfig(h.kubeconfig);
    await sleep(plan.settleMs);
    const idle = await measureProcess(node.pid, plan.windowMs);

    watch = await watchPods(client, NAMESPACE, stop.signal);
    const names = Array.from({ length: plan.pods }, (_, i) => `idle-${i}`);
    const start = performance.now();
    const c = client;
    const create = await closedLoop(plan.createConcurrency, plan.pods, async (i) => {
      const res = await c.request(
        "POST",
        `/api/v1/namespaces/${NAMESPACE}/pods`,
        JSON.stringify(benchPod("trivial", names[i]!, NODE_NAME)),
      );
      if (res.status !== 201) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 200)}`);
    });
    const w = watch;
    await w.until(() => names.every((n) => w.readyAt.has(n)), plan.readyDeadlineMs);
    const readyTimes = names.flatMap((n) => w.readyAt.get(n) ?? []);
    const allReadyMs = round(Math.max(start, ...readyTimes) - start, 1);
    await sleep(plan.settleMs);
    const loaded = await measureProcess(node.pid, plan.windowMs);
    const per = (a: number, b: number) => round((b - a) / plan.pods, 3);
    result = {
      pods: plan.pods,
      idle,
      loaded,
      perPod: {
        cpuPercent: per(idle.cpuPercent, loaded.cpuPercent),
        rssKB: round(per(idle.rssMB, loaded.rssMB) * 1000, 0),
      },
      create,
      allReadyMs,
      ready: readyTimes.length,
    };
  } finally {
    stop.abort();
    await watch?.closed();
    client?.close();
    // SIGTERM: the agent stops its pods; whatever it left alive is killed and counted.
    await node?.stop(AGENT_STOP_DEADLINE_MS);
    leftoverProcesses = killRecorded(nodeDir);
    await stopAndClean(h);
  }
  return { ...result, leftoverProcesses };
}
