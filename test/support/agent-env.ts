/**
 * The node agent in this process on the controller test tier: an envtest
 * apiserver, a data directory of its own and real agents on it (pods run as
 * `sh` under bubblewrap), started and stopped by the test (a second agent on
 * the same directory adopts what the first left). `stop()` ends every agent,
 * SIGKILLs any recorded process still alive (by pid and start time), stops the
 * apiserver and removes the directory. Pod builders and status waits for the
 * tests that drive the agent.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Container, ContainerStatus, Pod, PodSpec } from "../../src/api/index.js";
import { type RunningNode, startNodeAgent } from "../../src/cli/node.js";
import type { AgentOptions } from "../../src/node/index.js";
import { createNamespace, getOrGone, POD } from "./core-objects.js";
import { type Env, startEnv } from "./envtest.js";
import { waitFor } from "./hearth-process.js";
import { killRecorded, testPodCidr } from "./node-pods.js";

export const AGENT_NODE = "agent-pods";

export interface RunningAgent {
  node: RunningNode;
  /** Stops the agent (its pods too, unless it keeps workloads) and waits. */
  stop(): Promise<void>;
}

export interface AgentEnv {
  env: Env;
  dataDir: string;
  /** Starts an agent on the env's apiserver and the shared data directory. */
  startAgent(extra?: Partial<AgentOptions>): Promise<RunningAgent>;
  stop(): Promise<void>;
}

export async function startAgentEnv(): Promise<AgentEnv> {
  const env = await startEnv();
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-agent-pods-"));
  const podCIDR = testPodCidr().replace(/\.0\.0\/16$/, ".0.0/24");
  const agents: RunningAgent[] = [];
  return {
    env,
    dataDir,
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

/** A container running `script` with `sh -c`. */
export function shContainer(
  name: string,
  script: string,
  extra: Partial<Container> = {},
): Container {
  return { name, image: "sh", args: ["-c", script], ...extra };
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
