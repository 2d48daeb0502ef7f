/**
 * The node agent's restart on the controller test tier (containers on CRI,
 * which the runtime records): an agent stopped with `keepWorkloads`
 * leaves its pods running; the next agent on the same data directory adopts
 * them (same container, same run, no restart), notices their
 * exit and restarts them per policy, stops and removes a pod whose object was
 * deleted while no agent ran, and on a plain stop ends the pods it adopted.
 */
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Pod } from "../../src/api/index.js";
import { PodDirs } from "../../src/node/index.js";
import {
  type AgentEnv,
  agentPod,
  agentSkipReason,
  containerStatus,
  startAgentEnv,
  type TestRun,
  testNamespace,
  waitPod,
} from "../support/agent-env.js";
import { POD, uniqueName, waitGone } from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";

/** Runs until `/state/stop` exists, then exits 0; SIGTERM ends it too. */
const UNTIL_STOP =
  "trap 'exit 0' TERM; while [ ! -f /state/stop ]; do sleep 0.1; done; rm /state/stop";
const STATE = { name: "state", emptyDir: {} };

const running = (p: Pod) => Boolean(containerStatus(p, "c")?.state?.running);
const alive = (run: TestRun) => run.alive();

describe("node agent restart: adoption of what the last agent left running", {
  skip: agentSkipReason(),
}, () => {
  let a: AgentEnv;
  let ns: string;

  beforeEach(async () => {
    a = await startAgentEnv();
    ns = await testNamespace(a.env, uniqueName("adopt"));
  });
  afterEach(() => a?.stop());

  const processesOf = (pod: Pod) => a.runsOf(pod);
  const loopPod = (ns: string, name: string): Pod =>
    agentPod(
      ns,
      name,
      [a.sh("c", UNTIL_STOP, { volumeMounts: [{ name: "state", mountPath: "/state" }] })],
      { volumes: [STATE] },
    );

  it("adopts a kept pod without restarting it, then restarts it when it exits", async () => {
    const first = await a.startAgent({ keepWorkloads: true });
    const pod = await a.env.client.create(loopPod(ns, "kept"));
    const up = await waitPod(a.env, pod, "running", running);
    const before = containerStatus(up, "c")!;
    const [proc] = await processesOf(pod);
    assert.ok(proc && (await alive(proc)));
    await first.stop();
    assert.ok(await alive(proc), "the kept process outlives its agent");

    const second = await a.startAgent();
    assert.deepEqual([...second.node.agent.workers.keys()], [pod.metadata.uid]);
    // The new agent reports the same run: no restart, same container and start.
    const adopted = await waitPod(a.env, pod, "reported by the new agent", (p) => {
      const c = containerStatus(p, "c");
      return running(p) && c?.containerID === before.containerID;
    });
    assert.equal(containerStatus(adopted, "c")?.restartCount, 0);
    assert.deepEqual(containerStatus(adopted, "c")?.state, before.state);
    assert.ok(await alive(proc));

    // Its exit is noticed by the agent that did not start it, and Always restarts it.
    writeFileSync(join(new PodDirs(a.dataDir).volume(pod.metadata.uid!, "state"), "stop"), "");
    const restarted = await waitPod(
      a.env,
      pod,
      "restarted once",
      (p) => containerStatus(p, "c")?.restartCount === 1 && running(p),
    );
    assert.equal(containerStatus(restarted, "c")?.lastState?.terminated?.exitCode, 0);
    assert.equal(await alive(proc), false);
    const [next] = await processesOf(pod);
    assert.ok(next && (await alive(next)) && next.id !== proc.id);

    // A plain stop ends the pods, adopted or not.
    await second.stop();
    assert.equal(await alive(next), false);
  });

  it("a pod deleted while no agent ran is stopped and its directory removed by the next", async () => {
    const first = await a.startAgent({ keepWorkloads: true });
    const pod = await a.env.client.create(loopPod(ns, "orphan"));
    await waitPod(a.env, pod, "running", running);
    const [proc] = await processesOf(pod);
    assert.ok(proc && (await alive(proc)));
    await first.stop();
    const ref = { ...POD, namespace: ns, name: "orphan" };
    // No agent to finish the deletion: the object waits with its deletionTimestamp.
    await a.env.client.delete(ref, { gracePeriodSeconds: 30 });
    const deleting = await waitPod(a.env, pod, "being deleted", (p) =>
      Boolean(p.metadata.deletionTimestamp),
    );
    assert.ok(deleting.metadata.deletionTimestamp);
    assert.ok(await alive(proc));

    await a.startAgent();
    await waitGone(a.env.client, ref);
    await waitFor("the process stopped", async () => !(await alive(proc!)));
    await waitFor(
      "the directory removed",
      () => !existsSync(new PodDirs(a.dataDir).pod(pod.metadata.uid!)),
    );
  });

  it("a pod whose object is gone entirely is stopped and removed on the next start", async () => {
    const first = await a.startAgent({ keepWorkloads: true });
    const pod = await a.env.client.create(loopPod(ns, "vanished"));
    await waitPod(a.env, pod, "running", running);
    const [proc] = await processesOf(pod);
    assert.ok(proc && (await alive(proc)));
    await first.stop();
    const ref = { ...POD, namespace: ns, name: "vanished" };
    // Force-deleted (grace 0), as `kubectl delete --force` would while the node is down.
    await a.env.client.delete(ref, { gracePeriodSeconds: 0 });
    await waitGone(a.env.client, ref);

    const second = await a.startAgent();
    await waitFor("the process stopped", async () => !(await alive(proc!)));
    await waitFor(
      "the directory removed",
      () => !existsSync(new PodDirs(a.dataDir).pod(pod.metadata.uid!)),
    );
    assert.equal(second.node.agent.workers.size, 0);
  });
});
