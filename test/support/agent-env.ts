/**
 * The node agent in this process on the controller test tier: an envtest
 * apiserver, a data directory of its own and real agents on it, started and
 * stopped by the test (a second agent on the same directory adopts what the
 * first left). Pods run as busybox containers on a containerd of the env's
 * own (test/support/cri-node.ts); suites skip with `agentSkipReason` where
 * the machine cannot run them. `stop()` ends every agent, stops containerd
 * (removing every sandbox left), the apiserver and removes the directory. Pod builders and status waits for the tests that drive the agent.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Container, ContainerStatus, Pod, PodSpec } from "../../src/api/index.js";
import { type RunningNode, startNodeAgent } from "../../src/cli/node.js";
import { type AgentOptions, CriClient } from "../../src/node/index.js";
import { createNamespace, getOrGone, POD } from "./core-objects.js";
import { type CriNode, startCriNode } from "./cri-node.js";
import { type Env, startEnv } from "./envtest.js";
import { waitFor } from "./hearth-process.js";
import { podSkipReason } from "./test-network.js";

export const AGENT_NODE = "agent-pods";

export interface RunningAgent {
  node: RunningNode;
  /** Stops the agent (its pods too, unless it keeps workloads) and waits. */
  stop(): Promise<void>;
}

export interface AgentEnv {
  env: Env;
  dataDir: string;
  /** The image of `sh` scripts. */
  shImage: string;
  /** The containerd the agents run pods on. */
  cri: CriNode;
  /** What pod IPs look like. */
  podIP: RegExp;
  /** A container running `script` with `sh -c`. */
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

/** One run of a container, by the runtime's identity of it (its CRI container id). */
export interface TestRun {
  container: string;
  id: string;
  alive(): Promise<boolean>;
}

/** Why the node-agent suites cannot run here (see podSkipReason), or false. */
export const agentSkipReason = podSkipReason;

export const SH_IMAGE = "busybox:1.35";

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

export async function startAgentEnv(): Promise<AgentEnv> {
  const env = await startEnv();
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-agent-pods-"));
  const podCIDR = testCriPodCidr();
  let cri: CriNode;
  try {
    cri = await startCriNode(dataDir, podCIDR);
  } catch (e) {
    await env.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const agents: RunningAgent[] = [];
  return {
    env,
    dataDir,
    shImage: SH_IMAGE,
    cri,
    podIP: /^10\.\d+\.\d+\.\d+$/,
    sh: (name, script, extra = {}) => shContainer(name, script, extra),
    runsOf: (pod) => criRuns(cri.socket, pod),
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
          cri: { socket: cri.socket },
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
        await cri.stop();
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

/** A container running `script` with `sh -c` in `image` (busybox by default). */
export function shContainer(
  name: string,
  script: string,
  extra: Partial<Container> = {},
  image = SH_IMAGE,
): Container {
  return { name, image, command: ["sh"], args: ["-c", script], ...extra };
}

/** A pod bound to the agent's node. */
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
