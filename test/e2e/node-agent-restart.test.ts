/**
 * The node agent survives its own death: `kill -9` of `hearth up` while pods
 * run, then a restart on the same data directory, adopts every container
 * (same pid, no restart, exactly one copy); a container that ended meanwhile
 * is restarted with the exit code containerd kept (it outlives the kill); the
 * containers of a pod deleted meanwhile are stopped and its directory
 * removed; `--keep-workloads` leaves pods running across a clean stop.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { containerdLayout, isRunning } from "../../src/node/index.js";
import { removeLeftovers } from "../support/containerd-leftovers.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { killPodProcesses, nodeName, type PodProcess, podProcesses } from "../support/node-pods.js";
import { podSkipReason, testNetwork } from "../support/test-network.js";

function sleeper(name: string, node: string): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 2
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "echo started; trap 'exit 7' TERM; while true; do sleep 0.2; done"]
    readinessProbe:
      exec: {command: [sh, -c, "test -d /proc/1"]}
      periodSeconds: 1
`;
}

describe("node agent restart and adoption", { skip: podSkipReason() }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-adopt-"));
  // One network for every start on the data directory: the pods keep their addresses.
  const args = [...testNetwork().args, "--crashloop-backoff-base-ms", "1000"];
  const started: Hearth[] = [];
  after(async () => {
    for (const h of started)
      if (h.process.exitCode === null && h.process.signalCode === null) await h.stop();
    const leftover = await killPodProcesses(dataDir);
    for (const h of started) await h.cleanup();
    const l = containerdLayout(dataDir);
    removeLeftovers(dataDir, [l.config, l.socket, join(dataDir, "registry", "config.yml")]);
    rmSync(dataDir, { recursive: true, force: true });
    assert.equal(leftover, 0, "no pod process outlived the test's hearth");
  });
  const start = async (extra: string[] = []) => {
    const h = await startHearth({ dataDir, extraArgs: [...args, ...extra] });
    started.push(h);
    return h;
  };
  const podJson = async (h: Hearth, name: string) =>
    JSON.parse(await h.kubectlOk(["get", "pod", name, "-o", "json"])) as {
      metadata: { uid: string };
      status: {
        containerStatuses?: {
          restartCount: number;
          ready: boolean;
          lastState: { terminated?: { exitCode: number } };
        }[];
      };
    };
  const procOf = async (uid: string): Promise<PodProcess> => {
    const p = (await podProcesses(dataDir)).find((r) => r.uid === uid);
    assert.ok(p, `a process of ${uid}`);
    return p;
  };
  /** The pods' processes still running (same pid and start time). */
  const liveProcesses = async () =>
    (await podProcesses(dataDir)).filter((p) => isRunning(p.pid, p.pidStart));

  it("adopts running pods after kill -9, restarts what ended meanwhile, stops what was deleted", async () => {
    let h = await start();
    const node = await nodeName(h);
    for (const name of ["keep", "ends", "gone"])
      await h.kubectlOk(["apply", "-f", "-"], { input: sleeper(name, node) });
    for (const name of ["keep", "ends", "gone"])
      await h.kubectlOk(["wait", "--for=condition=Ready", `pod/${name}`, "--timeout=60s"]);
    const uid = {
      keep: (await podJson(h, "keep")).metadata.uid,
      ends: (await podJson(h, "ends")).metadata.uid,
      gone: (await podJson(h, "gone")).metadata.uid,
    };
    const keep = await procOf(uid.keep);
    const ends = await procOf(uid.ends);
    const gone = await procOf(uid.gone);

    await h.kill9();
    assert.equal((await liveProcesses()).length, 3, "pods outlive the agent");
    // While no agent runs: one container ends by itself (its trap exits 7; containerd keeps the code).
    process.kill(-ends.pid, "SIGTERM");
    await waitFor(
      "the ended process",
      async () => !(await liveProcesses()).some((p) => p.pid === ends.pid),
    );
    // And one pod is removed from the API while no agent runs.
    h = await start(["--no-node-agent"]);
    await h.kubectlOk(["delete", "pod", "gone", "--grace-period=0", "--force"]);
    await h.kill9();

    h = await start();
    await waitFor(
      "the restarted pod",
      async () => {
        const s = (await podJson(h, "ends")).status.containerStatuses?.[0];
        return s?.restartCount === 1 && s.ready;
      },
      30_000,
    );
    const endsStatus = (await podJson(h, "ends")).status.containerStatuses![0]!;
    assert.equal(endsStatus.lastState.terminated?.exitCode, 7, "the exit code the runtime kept");

    await waitFor(
      "the deleted pod's process to stop",
      async () => !(await liveProcesses()).some((p) => p.pid === gone.pid),
      30_000,
    );
    await waitFor(
      "the deleted pod's directory to go",
      () => !existsSync(join(dataDir, "pods", uid.gone)),
    );

    const keepNow = await procOf(uid.keep);
    assert.equal(keepNow.pid, keep.pid, "the same process, adopted");
    assert.equal(keepNow.pidStart, keep.pidStart);
    const s = (await podJson(h, "keep")).status.containerStatuses![0]!;
    assert.equal(s.restartCount, 0, "a healthy pod is not restarted");
    const mine = (await podProcesses(dataDir)).filter((p) => p.uid === uid.keep);
    assert.deepEqual(
      mine.map((p) => p.pid),
      [keep.pid],
      "exactly one container runs it",
    );
    await h.kubectlOk(["wait", "--for=condition=Ready", "pod/keep", "--timeout=30s"]);
    assert.match(await h.kubectlOk(["logs", "keep"]), /^started\n/);

    // A clean stop with --keep-workloads leaves the pods running; the next agent adopts them.
    await h.kill9();
    h = await start(["--keep-workloads"]);
    await h.kubectlOk(["wait", "--for=condition=Ready", "pod/keep", "--timeout=30s"]);
    assert.equal(await h.stop(), 0);
    assert.ok(
      (await liveProcesses()).some((p) => p.pid === keep.pid),
      "--keep-workloads kept the pod",
    );
    h = await start();
    await h.kubectlOk(["wait", "--for=condition=Ready", "pod/keep", "--timeout=30s"]);
    assert.equal((await procOf(uid.keep)).pid, keep.pid);

    // A clean stop without it stops every pod gracefully.
    assert.equal(await h.stop(), 0);
    assert.deepEqual(await liveProcesses(), []);
  });
});
