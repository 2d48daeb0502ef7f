/**
 * The node agent's probes, volumes and teardown on the controller test tier (a
 * real agent in this process, pods as `sh` scripts in busybox containers on
 * CRI, whose exec probes are ExecSync): an exec
 * readiness probe follows a file the test writes into the pod's emptyDir on
 * the host; a failing exec liveness probe restarts the container; a missing
 * ConfigMap volume and an unbound claim hold the pod (FailedMount,
 * PersistentVolumeClaimNotBound) until they exist; a deleted pod's processes
 * stop, its object goes and its directory is removed; a pod replaced under the
 * same name (a new uid) gets a fresh directory and run.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Pod, Probe } from "../../src/api/index.js";
import { PodDirs } from "../../src/node/index.js";
import {
  type AgentEnv,
  agentPod,
  agentSkipReason,
  conditionOf,
  containerStatus,
  getPod,
  startAgentEnv,
  testNamespace,
  waitPod,
} from "../support/agent-env.js";
import {
  configMap,
  eventsAbout,
  POD,
  uniqueName,
  waitEvent,
  waitGone,
} from "../support/core-objects.js";
import { waitFor } from "../support/hearth-process.js";

const LOOP = "trap 'exit 0' TERM; while :; do sleep 0.1; done";
const STATE = { name: "state", emptyDir: {} };
const STATE_MOUNT = [{ name: "state", mountPath: "/state" }];

function execProbe(command: string): Probe {
  return { exec: { command: ["sh", "-c", command] }, periodSeconds: 1, failureThreshold: 1 };
}

const running = (p: Pod) => Boolean(containerStatus(p, "c")?.state?.running);
const ready = (want: string) => (p: Pod) => conditionOf(p, "Ready") === want;

describe("node agent pod sync: probes, volumes, teardown", { skip: agentSkipReason() }, () => {
  let a: AgentEnv;
  let ns: string;
  let dirs: PodDirs;
  let hostDir: string;

  before(async () => {
    a = await startAgentEnv();
    ns = await testNamespace(a.env, "probes");
    dirs = new PodDirs(a.dataDir);
    hostDir = mkdtempSync(join(tmpdir(), "hearth-agent-pv-"));
    await a.startAgent();
  });
  after(async () => {
    await a?.stop();
    rmSync(hostDir, { recursive: true, force: true });
  });

  /** A host file in the pod's `state` emptyDir. */
  const stateFile = (pod: Pod, name: string) => join(dirs.volume(pod.metadata.uid!, "state"), name);

  it("an exec readiness probe makes the pod Ready and unready as its check passes and fails", async () => {
    const pod = await a.env.client.create(
      agentPod(
        ns,
        uniqueName("ready"),
        [
          a.sh("c", LOOP, {
            volumeMounts: STATE_MOUNT,
            readinessProbe: execProbe("test -f /state/ready"),
          }),
        ],
        { volumes: [STATE] },
      ),
    );
    const up = await waitPod(
      a.env,
      pod,
      "running, not ready",
      (p) => running(p) && ready("False")(p),
    );
    assert.equal(containerStatus(up, "c")?.ready, false);
    assert.match(
      up.status?.conditions?.find((c) => c.type === "ContainersReady")?.message ?? "",
      /containers with unready status: \[c\]/,
    );
    writeFileSync(stateFile(up, "ready"), "");
    const readyPod = await waitPod(a.env, pod, "Ready", ready("True"));
    assert.equal(containerStatus(readyPod, "c")?.ready, true);
    unlinkSync(stateFile(up, "ready"));
    const unready = await waitPod(a.env, pod, "unready again", ready("False"));
    // Readiness never restarts anything.
    assert.equal(containerStatus(unready, "c")?.restartCount, 0);
    assert.ok(running(unready));
  });

  it("a failing exec liveness probe kills the container and it is restarted", async () => {
    const pod = await a.env.client.create(
      agentPod(
        ns,
        uniqueName("live"),
        [
          a.sh("c", LOOP, {
            volumeMounts: STATE_MOUNT,
            livenessProbe: execProbe("test ! -f /state/sick"),
          }),
        ],
        { volumes: [STATE] },
      ),
    );
    const up = await waitPod(a.env, pod, "running", running);
    // Healthy for a few probe periods: no restart.
    await waitEvent(a.env.client, ns, pod.metadata.name!, /^Started:/);
    assert.equal(containerStatus(up, "c")?.restartCount, 0);
    writeFileSync(stateFile(up, "sick"), "");
    await waitEvent(
      a.env.client,
      ns,
      pod.metadata.name!,
      /^Killing: Container c failed liveness probe/,
    );
    const events = await eventsAbout(a.env.client, ns, pod.metadata.name!);
    assert.ok(
      events.some((e) => e.startsWith("Unhealthy: Liveness probe failed")),
      events.join("; "),
    );
    // Healthy again, so the restarted run stays up.
    unlinkSync(stateFile(up, "sick"));
    const again = await waitPod(
      a.env,
      pod,
      "restarted and running",
      (p) => (containerStatus(p, "c")?.restartCount ?? 0) >= 1 && running(p),
    );
    assert.equal(containerStatus(again, "c")?.lastState?.terminated !== undefined, true);
  });

  it("a missing ConfigMap volume holds the pod (FailedMount) until it exists, then mounts its keys", async () => {
    const name = uniqueName("cmvol");
    const pod = await a.env.client.create(
      agentPod(
        ns,
        name,
        [
          a.sh("c", 'test "$(cat /cfg/greeting)" = hello || exit 6', {
            volumeMounts: [{ name: "cfg", mountPath: "/cfg" }],
          }),
        ],
        { restartPolicy: "Never", volumes: [{ name: "cfg", configMap: { name: `${name}-cm` } }] },
      ),
    );
    const blocked = await waitPod(a.env, pod, "not ready to start", ready("False"));
    await waitFor("PodReadyToStartContainers=False", async () => {
      const p = await getPod(a.env, ns, name);
      return p && conditionOf(p, "PodReadyToStartContainers") === "False";
    });
    assert.equal(containerStatus(blocked, "c")?.state?.running, undefined);
    await waitEvent(
      a.env.client,
      ns,
      name,
      new RegExp(`^FailedMount: .*configmap "${name}-cm" not found`),
    );
    await a.env.client.create({ ...configMap(ns, `${name}-cm`), data: { greeting: "hello" } });
    const done = await waitPod(a.env, pod, "Succeeded", (p) => p.status?.phase === "Succeeded");
    assert.equal(conditionOf(done, "PodReadyToStartContainers"), "True");
    assert.equal(containerStatus(done, "c")?.state?.terminated?.exitCode, 0);
  });

  it("an unbound claim is PersistentVolumeClaimNotBound until it binds, then the PV's directory is mounted", async () => {
    const name = uniqueName("claim");
    await a.env.client.create({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name, namespace: ns },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Mi" } } },
    });
    const pod = await a.env.client.create(
      agentPod(
        ns,
        name,
        [
          a.sh("c", "echo written > /data/out", {
            volumeMounts: [{ name: "data", mountPath: "/data" }],
          }),
        ],
        {
          restartPolicy: "Never",
          volumes: [{ name: "data", persistentVolumeClaim: { claimName: name } }],
        },
      ),
    );
    const blocked = await waitPod(
      a.env,
      pod,
      "PersistentVolumeClaimNotBound",
      (p) =>
        p.status?.conditions?.find((c) => c.type === "PodReadyToStartContainers")?.reason ===
        "PersistentVolumeClaimNotBound",
    );
    assert.equal(blocked.status?.phase, "Pending");
    assert.equal(existsSync(join(hostDir, "out")), false);
    await a.env.client.create({
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: `${name}-pv` },
      spec: {
        capacity: { storage: "1Mi" },
        accessModes: ["ReadWriteOnce"],
        hostPath: { path: hostDir },
        claimRef: { namespace: ns, name },
      },
    });
    const ref = { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: ns, name };
    await a.env.client.patch(ref, { spec: { volumeName: `${name}-pv` } }, { type: "merge" });
    await a.env.client.patchStatus(ref, { status: { phase: "Bound" } }, { type: "merge" });
    const done = await waitPod(a.env, pod, "Succeeded", (p) => p.status?.phase === "Succeeded");
    assert.equal(containerStatus(done, "c")?.state?.terminated?.exitCode, 0);
    assert.equal(readFileSync(join(hostDir, "out"), "utf8"), "written\n");
  });

  it("a deleted pod's process stops, its object goes and its directory is removed", async () => {
    const pod = await a.env.client.create(agentPod(ns, uniqueName("gone"), [a.sh("c", LOOP)]));
    await waitPod(a.env, pod, "running", running);
    const runs = await a.runsOf(pod);
    assert.equal(runs.length, 1);
    assert.ok(await runs[0]!.alive());
    const ref = { ...POD, namespace: ns, name: pod.metadata.name! };
    await a.env.client.delete(ref, { gracePeriodSeconds: 5 });
    await waitGone(a.env.client, ref);
    assert.equal(await runs[0]!.alive(), false);
    await waitFor("the pod's directory removed", () => !existsSync(dirs.pod(pod.metadata.uid!)));
    const events = await eventsAbout(a.env.client, ns, pod.metadata.name!);
    assert.ok(
      events.some((e) => e === "Killing: Stopping container c"),
      events.join("; "),
    );
  });

  it("a pod replaced under the same name gets a fresh run; the old uid's directory goes", async () => {
    const name = uniqueName("replaced");
    const first = await a.env.client.create(agentPod(ns, name, [a.sh("c", LOOP)]));
    await waitPod(a.env, first, "running", running);
    const ref = { ...POD, namespace: ns, name };
    await a.env.client.delete(ref, { gracePeriodSeconds: 0 });
    const second = await a.env.client.create(agentPod(ns, name, [a.sh("c", LOOP)]));
    assert.notEqual(second.metadata.uid, first.metadata.uid);
    const up = await waitPod(a.env, second, "the new uid running", (p) => running(p));
    assert.equal(containerStatus(up, "c")?.restartCount, 0);
    const [run] = await a.runsOf(second);
    assert.ok(run && (await run.alive()));
    await waitFor(
      "the old uid's directory removed",
      () => !existsSync(dirs.pod(first.metadata.uid!)),
    );
    for (const old of await a.runsOf(first)) assert.equal(await old.alive(), false);
  });
});
