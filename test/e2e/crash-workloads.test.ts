/**
 * Issue 4's crash acceptance: `kill -9` of `hearth up` while pods run, then
 * `hearth up` again on the same data directory. Two `sh` pods (one writing to
 * a claim) and an etcd pod behind a Service keep running through the crash;
 * the new agent adopts them: every pod Running and Ready with the same
 * processes, container IDs and restart counts, started once; and the
 * ClusterIP is served again by the new agent's nftables rules. After deleting
 * the pods and claims and a SIGTERM, no process of the pods is left, no
 * nftables table of the Hearth, and DIR/volumes and DIR/pods are empty.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Pod, Probe, Volume } from "../../src/api/pod.js";
import { tableExists, tableNameFor } from "../../src/node/index.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import {
  applyObjects,
  etcdGet,
  etcdPod,
  etcdPut,
  etcdService,
  killProcesses,
  type PodProcess,
  podProcesses,
  processTable,
  shPod,
} from "../support/node-pods.js";
import { claimYaml } from "../support/storage-env.js";
import { podSkipReason, testNetwork } from "../support/test-network.js";

const PODS = ["plain", "writer", "etcd"] as const;

/** Each run of a readiness probe appends a line to the pod's `probes` emptyDir. */
const PROBES: Volume = { name: "probes", emptyDir: {} };
const marking = (check: string): Probe => ({
  exec: { command: ["sh", "-c", `${check} && echo >> /probes/ran`] },
  periodSeconds: 1,
  timeoutSeconds: 5,
});

interface PodFacts {
  uid: string;
  phase?: string;
  ready: boolean;
  restartCount?: number;
  startedAt?: string;
  podIP?: string;
  containerID?: string;
}

describe("kill -9 of hearth up while pods run, then a restart", { skip: podSkipReason() }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-crash-"));
  const net = testNetwork();
  const args = [...net.args, "--crashloop-backoff-base-ms", "1000"];
  const clusterIP = net.clusterIp();
  const endpoint = `http://${clusterIP}:2379`;
  const started: Hearth[] = [];
  /** Every pod process seen, for the last-resort kill. */
  const seen: PodProcess[] = [];
  after(async () => {
    for (const h of started)
      if (h.process.exitCode === null && h.process.signalCode === null) await h.stop();
    const all = [...seen, ...(await podProcesses(dataDir))];
    const leftover = killProcesses(
      all.filter((p, i) => all.findIndex((q) => q.pid === p.pid) === i),
    );
    for (const h of started) await h.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
    assert.equal(leftover, 0, "no pod process outlived the test");
  });
  const start = async () => {
    const h = await startHearth({ dataDir, extraArgs: args });
    started.push(h);
    return h;
  };

  const facts = async (h: Hearth, name: string): Promise<PodFacts> => {
    const p = JSON.parse(await h.kubectlOk(["get", "pod", name, "-o", "json"])) as Pod;
    const s = p.status?.containerStatuses?.[0];
    return {
      uid: p.metadata.uid!,
      ...(p.status?.phase ? { phase: p.status.phase } : {}),
      ready: p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false,
      ...(s
        ? {
            restartCount: s.restartCount,
            startedAt: s.state?.running?.startedAt,
            containerID: s.containerID,
          }
        : {}),
      ...(p.status?.podIP ? { podIP: p.status.podIP } : {}),
    };
  };
  const processOf = async (uid: string): Promise<PodProcess> => {
    const found = (await podProcesses(dataDir)).filter((p) => p.uid === uid);
    assert.equal(found.length, 1, `one recorded process for pod ${uid}`);
    seen.push(found[0]!);
    return found[0]!;
  };
  const volumeFile = (uid: string, volume: string, file: string) =>
    join(dataDir, "pods", uid, "volumes", volume, file);
  const lines = (file: string) =>
    existsSync(file) ? readFileSync(file, "utf8").split("\n").length - 1 : 0;

  it("adopts every pod exactly once, serves the Service again, and leaves nothing behind", async () => {
    let h = await start();
    await h.kubectlOk(["apply", "-f", "-"], { input: claimYaml("writer-data", "1Gi") });
    await applyObjects(h, [etcdService("etcd", clusterIP, { app: "etcd-crash" })]);
    await applyObjects(h, [
      shPod("plain", [PROBES], marking("true")),
      shPod(
        "writer",
        [{ name: "data", persistentVolumeClaim: { claimName: "writer-data" } }, PROBES],
        marking("true"),
      ),
      etcdPod("etcd", {
        labels: { app: "etcd-crash" },
        data: { name: "data", emptyDir: {} },
        // The etcd image has bash but no etcdctl: a connect to the client port.
        readinessProbe: marking("bash -c 'echo > /dev/tcp/$POD_IP/2379'"),
        extra: [PROBES],
      }),
    ]);
    for (const name of PODS)
      await h.kubectlOk(["wait", "--for=condition=Ready", `pod/${name}`, "--timeout=60s"]);
    await etcdPut(endpoint, "greeting", "hello");

    const before = new Map<string, PodFacts>();
    for (const name of PODS) before.set(name, await facts(h, name));
    const procs = new Map<string, PodProcess>();
    for (const n of PODS) procs.set(n, await processOf(before.get(n)!.uid));
    for (const [name, f] of before) assert.equal(f.restartCount, 0, `${name} never restarted`);

    await h.kill9();
    assert.equal((await podProcesses(dataDir)).length, PODS.length, "the pods outlive hearth");
    const probesAtCrash = new Map(
      PODS.map((n) => [n, lines(volumeFile(before.get(n)!.uid, "probes", "ran"))]),
    );

    h = await start();
    // Each pod is in the new agent's hands once its probes run again.
    await waitFor(
      "the new agent probing every pod",
      () =>
        PODS.every(
          (n) =>
            lines(volumeFile(before.get(n)!.uid, "probes", "ran")) >= probesAtCrash.get(n)! + 2,
        ),
      30_000,
    );
    for (const name of PODS)
      await h.kubectlOk(["wait", "--for=condition=Ready", `pod/${name}`, "--timeout=30s"]);
    assert.equal(
      await etcdGet(endpoint, "greeting"),
      "hello",
      "the new agent's rules serve the ClusterIP",
    );

    const etcdArgv = (ip: string) => `--listen-client-urls=http://${ip}:2379`;
    for (const name of PODS) {
      const was = before.get(name)!;
      const now = await facts(h, name);
      assert.deepEqual(now, was, `${name}: Running and Ready, not restarted`);
      assert.equal(now.phase, "Running");
      assert.ok(now.ready);
      const p = procs.get(name)!;
      assert.deepEqual(await processOf(was.uid), p, `${name}: the same container process`);
      const table = processTable();
      if (name === "etcd")
        assert.deepEqual(
          table
            .filter(
              (q) =>
                /(^|\/)etcd$/.test(q.cmdline[0] ?? "") && q.cmdline.includes(etcdArgv(was.podIP!)),
            )
            .map((q) => q.pid),
          [p.pid],
          "one etcd serves the pod's IP",
        );
    }
    assert.equal(lines(volumeFile(before.get("plain")!.uid, "probes", "starts")), 1);
    const writerPv = (
      await h.kubectlOk(["get", "pvc", "writer-data", "-o", "jsonpath={.spec.volumeName}"])
    ).trim();
    assert.equal(lines(join(dataDir, "volumes", writerPv, "starts")), 1, "the writer started once");

    // Delete everything, then stop hearth: nothing may be left.
    // Each container process leads its own session.
    const sessions = new Set([...procs.values()].map((p) => p.pid));
    await h.kubectlOk(["delete", "pods", "--all", "--timeout=60s"]);
    await h.kubectlOk(["delete", "pvc", "--all", "--timeout=60s"]);
    await waitFor(
      "every PV gone",
      async () => (await h.kubectlOk(["get", "pv", "-o", "name"])) === "",
      30_000,
    );
    assert.equal(await h.stop(), 0, "SIGTERM stopped hearth cleanly");
    assert.equal(killProcesses(seen), 0, "no recorded pod process is alive");
    assert.deepEqual(
      processTable().filter(
        (q) => sessions.has(q.sid) || q.cmdline.some((a) => a.includes(dataDir)),
      ),
      [],
      "no process of the pods' sessions or of the data directory is left",
    );
    assert.deepEqual(readdirSync(join(dataDir, "volumes")), [], "no orphan volume");
    assert.deepEqual(readdirSync(join(dataDir, "pods")), [], "no pod directory");
    assert.equal(await tableExists(tableNameFor(dataDir)), false, "no nftables table is left");
  });
});
