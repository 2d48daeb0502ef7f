/**
 * `hearth controllers` beside a `hearth apiserver` on a real etcd, as a tenant
 * control plane runs them, driven by the real kubectl: two replicas campaign
 * for the Lease `kube-system/hearth-controllers` and only the holder runs the
 * controllers; a Deployment gets its ReplicaSet and pods (Pending: the cluster
 * has no nodes); after a `kill -9` of the leader the other takes the Lease and
 * the controllers go on (a scale reaches the pods); a namespace with content
 * is deleted to the end.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type ApiserverProcess, exited, startApiserver } from "../support/apiserver-process.js";
import { type EtcdProcess, startEtcd } from "../support/etcd-process.js";
import { HEARTH_MAIN, waitFor } from "../support/hearth-process.js";

interface Replica {
  child: ChildProcess;
  identity: string;
  /** Whether it has printed that it leads. */
  leading(): boolean;
  output(): string;
}

/** Short lease timing, so that a takeover takes seconds (the flags kube-controller-manager has). */
const TIMING = [
  "--leader-elect-lease-duration=3s",
  "--leader-elect-renew-deadline=2s",
  "--leader-elect-retry-period=500ms",
];

async function startReplica(kubeconfig: string): Promise<Replica> {
  const child = spawn(
    process.execPath,
    [HEARTH_MAIN, "controllers", "--kubeconfig", kubeconfig, ...TIMING],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err = (err + d).slice(-4000)));
  await waitFor(
    `hearth controllers running: ${out} ${err}`,
    () => /running as (\S+)/.test(out),
    30_000,
  );
  return {
    child,
    identity: /running as (\S+)/.exec(out)![1]!,
    leading: () => out.includes("are leading as"),
    output: () => `${out}\n${err}`,
  };
}

async function kill(r: Replica | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!r || r.child.exitCode !== null || r.child.signalCode !== null) return;
  r.child.kill(signal);
  await exited(r.child);
}

describe("hearth controllers beside hearth apiserver", () => {
  let etcd: EtcdProcess;
  let dataDir: string;
  let home: string;
  let api: ApiserverProcess;
  const replicas: Replica[] = [];

  before(async () => {
    etcd = await startEtcd({ tls: true });
    dataDir = mkdtempSync(join(tmpdir(), "hearth-controllers-"));
    home = mkdtempSync(join(tmpdir(), "hearth-kubectl-home-"));
    api = await startApiserver(etcd, dataDir, home);
  });
  after(async () => {
    for (const r of replicas) await kill(r, "SIGKILL");
    await api?.stop();
    await etcd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  const holder = async () =>
    (
      await api.kubectl([
        "get",
        "lease",
        "-n",
        "kube-system",
        "hearth-controllers",
        "-o",
        "jsonpath={.spec.holderIdentity} {.spec.leaseTransitions}",
      ])
    ).stdout.trim();

  const pods = async () =>
    (await api.kubectlOk(["get", "pods", "-n", "shop", "-l", "app=web", "-o", "name"]))
      .split("\n")
      .filter(Boolean);

  it("one replica leads; its controllers run a Deployment; the other takes over after a kill -9", async () => {
    replicas.push(await startReplica(api.kubeconfig), await startReplica(api.kubeconfig));
    await waitFor("one replica leads", () => replicas.some((r) => r.leading()), 30_000);
    const leader = replicas.find((r) => r.leading())!;
    const other = replicas.find((r) => r !== leader)!;
    assert.equal(await holder(), `${leader.identity} 0`);
    assert.equal(other.leading(), false, "only one leads");

    await api.kubectlOk(["create", "namespace", "shop"]);
    await api.kubectlOk([
      "create",
      "deployment",
      "web",
      "-n",
      "shop",
      "--image=nginx",
      "--replicas=2",
    ]);
    await waitFor("2 pods of web", async () => (await pods()).length === 2, 30_000);
    const phases = await api.kubectlOk([
      "get",
      "pods",
      "-n",
      "shop",
      "-o",
      "jsonpath={.items[*].status.phase}",
    ]);
    assert.equal(phases.trim(), "Pending Pending", "no node: the scheduler leaves them Pending");

    await kill(leader, "SIGKILL");
    await waitFor(`the other leads: ${other.output()}`, () => other.leading(), 30_000);
    assert.equal(await holder(), `${other.identity} 1`);
    await api.kubectlOk(["scale", "deployment", "web", "-n", "shop", "--replicas=3"]);
    await waitFor("3 pods of web", async () => (await pods()).length === 3, 30_000);

    // The namespace controller and the garbage collector take it all down.
    await api.kubectlOk(["delete", "namespace", "shop", "--wait=false"]);
    await waitFor(
      "namespace shop gone",
      async () => (await api.kubectl(["get", "namespace", "shop"])).code !== 0,
      60_000,
    );
    await kill(other, "SIGTERM");
    assert.equal(other.child.exitCode, 0, other.output());
  });
});
