/**
 * The node agent in this process on the controller test tier: an envtest
 * apiserver, a data directory of its own and real agents on it, started and
 * stopped by the test (a second agent on the same directory adopts what the
 * first left). Pods run as `sh` under bubblewrap, or with `{ runtime: "cri" }`
 * as busybox containers on a containerd of the env's own (test/support/cri-node.ts).
 * `stop()` ends every agent, SIGKILLs any recorded process still alive (by
 * pid and start time), stops containerd, the apiserver and removes the
 * directory. Pod builders and status waits for the tests that drive the agent.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Container, ContainerStatus, Pod, PodSpec } from "../../src/api/index.js";
import { type RunningNode, startNodeAgent } from "../../src/cli/node.js";
import { type AgentOptions, CriClient, isRunning } from "../../src/node/index.js";
import { createNamespace, getOrGone, POD } from "./core-objects.js";
import { type CriNode, criSkipReason, startCriNode } from "./cri-node.js";
import { type Env, startEnv } from "./envtest.js";
import { waitFor } from "./hearth-process.js";
import { killRecorded, recordedProcesses, testPodCidr } from "./node-pods.js";

export const AGENT_NODE = "agent-pods";

export interface RunningAgent {
  node: RunningNode;
  /** Stops the agent (its pods too, unless it keeps workloads) and waits. */
  stop(): Promise<void>;
}

export interface AgentEnv {
  env: Env;
  dataDir: string;
  /** The image of `sh` scripts on this env's runtime. */
  shImage: string;
  /** With `runtime: "cri"`: the containerd the agents run pods on. */
  cri?: CriNode;
  /** What pod IPs look like on this runtime. */
  podIP: RegExp;
  /** A container running `script` with `sh -c` on this env's runtime. */
  sh(name: string, script: string, extra?: Partial<Container>): Container;
  /** The current run of each container of `pod`, as the runtime knows it. */
  runsOf(pod: Pod): Promise<TestRun[]>;
  /** Starts an agent on the env's apiserver and the shared data directory. */
  startAgent(extra?: Partial<AgentOptions>): Promise<RunningAgent>;
  stop(): Promise<void>;
}

/** A /24 of 10.200.0.0/13 for one test file, so that files running at once do not share one. */
export function testCriPodCidr(): string {
  const n = Math.floor(Math.random() * 2048);
  return `10.${200 + (n >> 8)}.${n & 255}.0/24`;
}

/** One run of a container, by the runtime's identity of it (a pid, a CRI container id). */
export interface TestRun {
  container: string;
  id: string;
  alive(): Promise<boolean>;
}

/** The runtimes a shared node-agent suite runs on, each with why it is skipped here, if it is. */
export const RUNTIMES: { runtime: "host" | "cri"; skip: string | false }[] = [
  { runtime: "host", skip: false },
  { runtime: "cri", skip: criSkipReason() },
];

async function criRuns(socket: string, pod: Pod): Promise<TestRun[]> {
  const cri = await CriClient.connect(socket);
  try {
    const all = await cri.listContainers(
      { labelSelector: { "io.kubernetes.pod.uid": pod.metadata.uid! } },
      { timeoutMs: 10_000 },
    );
    const newest = new Map<string, (typeof all)[number]>();
    for (const c of all) {
      const name = c.metadata?.name ?? "";
      const seen = newest.get(name);
      if (!seen || (c.metadata?.attempt ?? 0) > (seen.metadata?.attempt ?? 0)) newest.set(name, c);
    }
    return [...newest.entries()].map(([container, c]) => ({
      container,
      id: c.id,
      async alive() {
        const cli = await CriClient.connect(socket);
        try {
          const s = await cli.containerStatus(c.id, { timeoutMs: 10_000 }).catch(() => undefined);
          return s?.status?.state === "CONTAINER_RUNNING";
        } finally {
          cli.close();
        }
      },
    }));
  } finally {
    cri.close();
  }
}

export async function startAgentEnv(opts: { runtime?: "host" | "cri" } = {}): Promise<AgentEnv> {
  const env = await startEnv();
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-agent-pods-"));
  const onCri = opts.runtime === "cri";
  const podCIDR = onCri ? testCriPodCidr() : testPodCidr().replace(/\.0\.0\/16$/, ".0.0/24");
  let cri: CriNode | undefined;
  try {
    if (onCri) cri = await startCriNode(dataDir, podCIDR);
  } catch (e) {
    await env.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const agents: RunningAgent[] = [];
  return {
    env,
    dataDir,
    shImage: onCri ? "busybox:1.35" : "sh",
    ...(cri ? { cri } : {}),
    podIP: onCri ? /^10\.\d+\.\d+\.\d+$/ : /^127\./,
    sh: (name, script, extra = {}) =>
      shContainer(name, script, extra, onCri ? "busybox:1.35" : "sh"),
    async runsOf(pod) {
      if (cri) return criRuns(cri.socket, pod);
      return recordedProcesses(dataDir)
        .filter((p) => p.uid === pod.metadata.uid)
        .map((p) => ({
          container: p.container,
          id: `${p.pid}/${p.pidStart}`,
          alive: async () => isRunning(p.pid, p.pidStart),
        }));
    },
    async startAgent(extra = {}) {
      const signal = new AbortController();
      const node = await startNodeAgent(
        env.client,
        {
          dataDir,
          nodeName: AGENT_NODE,
          podCIDR,
          pollMs: 50,
          crashBackoff: { baseMs: 300, maxMs: 600 },
          ...(cri ? { cri: { socket: cri.socket } } : {}),
          ...extra,
        },
        signal.signal,
      );
      const agent = {
        node,
        async stop() {
          signal.abort();
          await node.stopped();
        },
      };
      agents.push(agent);
      return agent;
    },
    async stop() {
      try {
        for (const a of agents) await a.stop();
      } finally {
        killRecorded(dataDir);
        await cri?.stop();
        await env.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A namespace for one test. */
export async function testNamespace(env: Env, name: string): Promise<string> {
  await createNamespace(env.client, name);
  return name;
}

/** A container running `script` with `sh -c` (on CRI: give the env's `shImage`). */
export function shContainer(
  name: string,
  script: string,
  extra: Partial<Container> = {},
  image = "sh",
): Container {
  const command = image === "sh" ? {} : { command: ["sh"] };
  return { name, image, ...command, args: ["-c", script], ...extra };
}

/** A pod bound to the agent's node, its containers `sh -c` scripts. */
export function agentPod(
  namespace: string,
  name: string,
  containers: Container[],
  spec: Partial<PodSpec> = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace },
    spec: { nodeName: AGENT_NODE, terminationGracePeriodSeconds: 1, containers, ...spec },
  };
}

export function getPod(env: Env, namespace: string, name: string): Promise<Pod | undefined> {
  return getOrGone<Pod>(env.client, { ...POD, namespace, name });
}

/** Waits until the pod satisfies `check`; says what the pod last showed when it never does. */
export async function waitPod(
  env: Env,
  pod: Pod,
  what: string,
  check: (p: Pod) => boolean,
  timeoutMs = 20_000,
): Promise<Pod> {
  const { namespace, name } = pod.metadata;
  let last: Pod | undefined;
  try {
    return await waitFor(
      `${namespace}/${name}: ${what}`,
      async () => {
        last = await getPod(env, namespace!, name!);
        return last && check(last) ? last : undefined;
      },
      timeoutMs,
    );
  } catch (e) {
    throw new Error(`${String(e)}; last status: ${JSON.stringify(last?.status)}`);
  }
}

/** The status of container `name` (regular or init). */
export function containerStatus(pod: Pod, name: string): ContainerStatus | undefined {
  const all = [
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.containerStatuses ?? []),
  ];
  return all.find((s) => s.name === name);
}

/** The status of the condition `type`: "True", "False" or undefined. */
export function conditionOf(pod: Pod, type: string): string | undefined {
  return pod.status?.conditions?.find((c) => c.type === type)?.status;
}
