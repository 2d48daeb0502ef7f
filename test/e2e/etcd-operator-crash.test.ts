/**
 * kill -9 of `hearth up` while the etcd operator is in the middle of a
 * membership change, then a restart on the same data directory: once right
 * after a member was added to etcd as a learner (scaling 1 → 3), once right
 * after the newest member was told to leave (3 → 1). The operator keeps nothing
 * in memory, so each time the restarted one carries on from what it observes:
 * the cluster reaches 3 voters, then 1, with no stray member in etcd's list,
 * and the data written before survives. Deleting the cluster then leaves no
 * pod process behind.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  type CertFiles,
  etcdClusterObject,
  etcdctlOk,
  etcdHearthArgs,
  jsonpath,
  removeFiles,
  secretFiles,
  tlsSecrets,
  waitClusterReady,
} from "../support/etcd-cluster.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import {
  applyObjects,
  killProcesses,
  type PodProcess,
  podProcesses,
} from "../support/node-pods.js";
import { podSkipReason } from "../support/test-network.js";

const NAME = "crashy";

describe("kill -9 of hearth up while an EtcdCluster changes membership", {
  skip: podSkipReason(),
}, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-etcd-crash-"));
  const args = etcdHearthArgs();
  const started: Hearth[] = [];
  const seen: PodProcess[] = [];
  let root: CertFiles | undefined;
  after(async () => {
    for (const h of started)
      if (h.process.exitCode === null && h.process.signalCode === null) await h.stop();
    const all = [...seen, ...(await podProcesses(dataDir))];
    const leftover = killProcesses(
      all.filter((p, i) => all.findIndex((q) => q.pid === p.pid) === i),
    );
    for (const h of started) await h.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
    removeFiles(root);
    assert.equal(leftover, 0, "no pod process outlived the test");
  });
  const start = async () => {
    const h = await startHearth({ dataDir, extraArgs: args });
    started.push(h);
    return h;
  };
  const reasons = async (h: Hearth) =>
    (
      await h.kubectlOk([
        "get",
        "events",
        "--field-selector",
        `involvedObject.name=${NAME}`,
        "-o",
        "jsonpath={.items[*].reason}",
      ])
    ).split(" ");
  /** Waits for the cluster's Event `reason`, then kills hearth and starts it again. */
  const crashAfter = async (h: Hearth, reason: string, count: number) => {
    await waitFor(
      `Event ${reason} #${count}`,
      async () => (await reasons(h)).filter((r) => r === reason).length >= count,
      90_000,
    );
    seen.push(...(await podProcesses(dataDir)));
    await h.kill9();
    return start();
  };
  const settled = async (h: Hearth, members: number) => {
    await waitFor(
      `${members} ready voters`,
      async () => {
        const s = JSON.parse(await jsonpath(h, ["etcdcluster", NAME], "{.status}"));
        return s.readyMembers === members && s.members?.length === members;
      },
      120_000,
    );
    await waitClusterReady(h, NAME);
  };

  it("carries on after each crash and converges to the wanted members", async () => {
    let h = await start();
    await applyObjects(h, [etcdClusterObject(NAME, { replicas: 1, auth: true })]);
    await waitClusterReady(h, NAME);
    root = await secretFiles(h, tlsSecrets(NAME).client);
    const endpoint = `https://${await jsonpath(h, ["svc", `${NAME}-client`], "{.spec.clusterIP}")}:2379`;
    await etcdctlOk(endpoint, root, ["put", "before", "crash"]);

    await h.kubectlOk(["scale", "etcdcluster", NAME, "--replicas=3"]);
    h = await crashAfter(h, "MemberAdded", 1);
    await settled(h, 3);
    const list = async () =>
      (await etcdctlOk(endpoint, root!, ["member", "list"]))
        .trim()
        .split("\n")
        .map((l) => l.split(", "));
    const three = await list();
    assert.equal(three.length, 3, "3 members in etcd, no stray learner");
    assert.ok(
      three.every((m) => m[1] === "started" && m[5] === "false"),
      "all started voters",
    );
    const names = (await jsonpath(h, ["etcdmembers"], "{.items[*].metadata.name}")).split(" ");
    assert.deepEqual(
      three.map((m) => m[2]).sort(),
      names.sort(),
      "etcd's members are the EtcdMembers",
    );

    await h.kubectlOk(["scale", "etcdcluster", NAME, "--replicas=1"]);
    h = await crashAfter(h, "MemberRemoving", 1);
    await settled(h, 1);
    const one = await list();
    assert.equal(one.length, 1, "1 member in etcd");
    assert.equal(one[0]![2], await jsonpath(h, ["etcdmembers"], "{.items[0].metadata.name}"));
    assert.equal(
      (await etcdctlOk(endpoint, root, ["get", "before", "--print-value-only"])).trim(),
      "crash",
    );

    const procs = await podProcesses(dataDir);
    await h.kubectlOk(["delete", "etcdcluster", NAME, "--timeout=90s"], { timeoutMs: 100_000 });
    await waitFor(
      "no pod of the cluster left",
      async () => (await h.kubectlOk(["get", "pods", "-o", "name"])).trim() === "",
      60_000,
    );
    assert.equal(killProcesses(procs), 0, "no etcd process was left to kill");
  });
});
