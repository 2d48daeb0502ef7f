/**
 * The etcd operator under a real `hearth up`, driven with kubectl and etcdctl
 * as a user would: bad EtcdClusters are refused at the door and change
 * nothing; three members with TLS and auth become Ready and serve etcdctl
 * through the client Service's ClusterIP only to holders of a client
 * certificate, with the quota at 95 % of the volume; a member whose etcd is
 * killed comes back on its data with the same member ID while reads and
 * writes go on, and so does one whose pod is deleted (a new pod and pod IP,
 * the same Service address, data and ID); per-user roles on key prefixes are
 * enforced for client certificates with other CNs; an EtcdMember deleted by
 * hand leaves etcd and is replaced, and an etcd member added by hand (no
 * EtcdMember) is removed; deleting the cluster
 * leaves no pod, process, claim, volume or Secret behind (once the test has
 * deleted the three Secrets kept by design).
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type CertFiles,
  clusterLeftovers,
  etcdClusterObject,
  etcdctl,
  etcdctlOk,
  etcdHearthArgs,
  issueClientFiles,
  jsonpath,
  removeFiles,
  secretFiles,
  tlsSecrets,
  waitClusterReady,
} from "../support/etcd-cluster.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { applyObjects, killProcesses, podProcesses, stopAndClean } from "../support/node-pods.js";
import { podSkipReason } from "../support/test-network.js";

const NAME = "etcd";
const GiB = 1024 ** 3;

interface EndpointStatus {
  Endpoint: string;
  Status: { header: { member_id: number }; leader: number };
}

describe("etcd operator: a 3-member EtcdCluster with TLS and auth", {
  skip: podSkipReason(),
}, () => {
  let h: Hearth;
  let root: CertFiles;
  const files: CertFiles[] = [];
  let endpoint = "";

  before(async () => {
    h = await startHearth({ extraArgs: etcdHearthArgs() });
  });
  after(async () => {
    removeFiles(root, ...files);
    assert.equal(await stopAndClean(h), 0, "SIGTERM stopped every pod process");
  });

  const spec = async () => jsonpath(h, ["etcdcluster", NAME], "{.spec}");

  it("refuses bad EtcdClusters with the field and the rule, and changes nothing", async () => {
    const bad = async (object: object, pattern: RegExp) => {
      const r = await h.kubectl(["apply", "-f", "-"], { input: JSON.stringify(object) });
      assert.notEqual(r.code, 0, `refused: ${JSON.stringify(object)}`);
      assert.match(r.stderr, pattern);
    };
    const good = etcdClusterObject(NAME, { replicas: 3, auth: true, size: "2Gi" });
    await bad(
      { ...good, spec: { ...good.spec, replicas: -1 } },
      /spec\.replicas: Invalid value: -1: spec\.replicas in body should be greater than or equal to 0/,
    );
    await bad(
      { ...good, spec: { ...good.spec, storage: { size: "two gigs" } } },
      /spec\.storage\.size: Invalid value: "two gigs": spec\.storage\.size in body should match/,
    );
    await bad(
      { ...good, spec: { ...good.spec, options: { "data-dir": "/tmp/x" } } },
      /spec\.options: .*must not set flags the operator owns/,
    );
    await bad(
      { ...good, spec: { ...good.spec, options: { "peer-cert-file": "/x" } } },
      /must not set flags the operator owns/,
    );
    await bad(
      { ...good, spec: { ...good.spec, options: { "quota-backend-bytes": "1" } } },
      /use the typed keys/,
    );
    assert.equal((await h.kubectl(["get", "etcdcluster", NAME])).code, 1, "nothing was created");

    await applyObjects(h, [good]);
    const before = await spec();
    const changedTls = structuredClone(good);
    changedTls.spec.tls.peer.secretRef.name = "other-peer-tls";
    await bad(changedTls, /spec\.tls: Invalid value: "object": tls is immutable/);
    const { auth: _auth, ...noAuth } = good.spec;
    await bad(
      { ...good, spec: noAuth },
      /spec\.auth: Invalid value: "object": auth is immutable once set/,
    );
    await bad({ ...good, spec: { ...good.spec, replicas: -3 } }, /spec\.replicas/);
    assert.equal(await spec(), before, "the stored spec is unchanged");
  });

  it("becomes Ready with 3 voters; etcdctl with the client certificate works, without it is refused", async () => {
    await waitClusterReady(h, NAME);
    assert.match(
      await h.kubectlOk(["get", "etcdcluster", NAME]),
      new RegExp(`^${NAME}\\s+3/3\\s+3\\s+MembersReady\\s+False`, "m"),
    );
    const ip = await jsonpath(h, ["svc", `${NAME}-client`], "{.spec.clusterIP}");
    endpoint = `https://${ip}:2379`;
    root = await secretFiles(h, tlsSecrets(NAME).client);
    await etcdctlOk(endpoint, root, ["put", "greeting", "hello"]);
    assert.equal(
      (await etcdctlOk(endpoint, root, ["get", "greeting", "--print-value-only"])).trim(),
      "hello",
    );

    const anonymous = await etcdctl(endpoint, root, ["get", "greeting"], { cert: false });
    assert.notEqual(anonymous.code, 0, "no client certificate, no access");
    const stranger = await issueClientFiles(h, tlsSecrets(NAME).ca, "stranger");
    files.push(stranger);
    const denied = await etcdctl(endpoint, stranger, ["get", "greeting"]);
    assert.notEqual(denied.code, 0, "auth is on: an unknown user is refused");
    assert.match(denied.stderr, /user name not found|permission denied|authentication failed/i);

    const statuses = JSON.parse(
      await etcdctlOk(endpoint, root, ["endpoint", "status", "--cluster", "-w", "json"]),
    ) as EndpointStatus[];
    assert.equal(statuses.length, 3, "three members answer");
    const memberIps = (
      await jsonpath(
        h,
        ["svc", "-l", "etcd.hearth.io/cluster=etcd,app.kubernetes.io/component"],
        "{.items[*].spec.clusterIP}",
      )
    ).split(" ");
    assert.deepEqual(
      statuses.map((s) => new URL(s.Endpoint).hostname).sort(),
      memberIps.sort(),
      "each member advertises its Service's ClusterIP",
    );
    assert.equal(new Set(statuses.map((s) => s.Status.leader)).size, 1, "one leader");

    // Quota: 95 % of the 2Gi volume, as etcd reports it on its metrics port.
    for (const podIp of (
      await jsonpath(h, ["pods", "-l", "etcd.hearth.io/cluster=etcd"], "{.items[*].status.podIP}")
    ).split(" ")) {
      const metrics = await (await fetch(`http://${podIp}:2381/metrics`)).text();
      const quota = Number(/^etcd_server_quota_backend_bytes (\S+)$/m.exec(metrics)?.[1]);
      assert.equal(quota, Math.floor(2 * GiB * 0.95), `quota of the member at ${podIp}`);
    }
    const status = JSON.parse(await jsonpath(h, ["etcdcluster", NAME], "{.status}"));
    assert.equal(status.readyMembers, 3);
    assert.equal(status.members.length, 3);
    assert.ok(
      status.members.every((m: { learner: boolean; ready: boolean }) => m.ready && !m.learner),
    );
    assert.equal(status.authEnabled, true);
  });

  it("keeps serving when one member's etcd is killed; the member comes back on its data, same ID", async () => {
    const pod = (
      await jsonpath(h, ["pods", "-l", "etcd.hearth.io/cluster=etcd"], "{.items[0].metadata.name}")
    ).trim();
    const uid = await jsonpath(h, ["pod", pod], "{.metadata.uid}");
    const idBefore = await memberId(pod);
    const [victim] = (await podProcesses(h.dataDir)).filter((p) => p.uid === uid);
    assert.ok(victim, "the member's etcd runs in a container");
    process.kill(victim.pid, "SIGKILL");
    // Writes and reads go on through the client Service (two of three members hold the quorum).
    for (let i = 0; i < 5; i++) {
      await etcdctlOk(endpoint, root, ["put", `during/${i}`, `v${i}`]);
      assert.equal(
        (await etcdctlOk(endpoint, root, ["get", `during/${i}`, "--print-value-only"])).trim(),
        `v${i}`,
      );
    }
    await waitFor(
      "the member restarted and Ready",
      async () =>
        (await jsonpath(
          h,
          ["pod", pod],
          "{.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].ready}",
        )) === "1 true",
      60_000,
    );
    await waitClusterReady(h, NAME);
    assert.equal(await memberId(pod), idBefore, "the same member, on its data");
    // `<hex id>, started, <name>, <peer URL>, <client URL>, <learner>` per member.
    const list = (await etcdctlOk(endpoint, root, ["member", "list"]))
      .trim()
      .split("\n")
      .map((l) => l.split(", "));
    assert.equal(list.length, 3, "no member was added or replaced");
    assert.deepEqual(
      list.find((m) => m[2] === pod)?.slice(0, 2),
      [idBefore, "started"],
      "etcd lists it under the same ID",
    );
    const podIp = await jsonpath(h, ["pod", pod], "{.status.podIP}");
    const alone = `https://${await jsonpath(h, ["svc", pod], "{.spec.clusterIP}")}:2379`;
    await waitFor(
      "the member caught up",
      async () =>
        (
          await etcdctl(alone, root, ["get", "during/4", "--print-value-only", "--consistency=s"])
        ).stdout.trim() === "v4",
      30_000,
    );
    assert.ok(podIp, "the restarted member has a pod IP");

    // A deleted pod is created again (new uid and pod IP) and rejoins on its claim, same ID.
    await h.kubectlOk(["delete", "pod", pod, "--timeout=60s"]);
    await waitFor(
      "the member's pod recreated and Ready",
      async () => {
        const r = await h.kubectl([
          "get",
          "pod",
          pod,
          "-o",
          "jsonpath={.metadata.uid} {.status.containerStatuses[0].ready}",
        ]);
        return r.code === 0 && r.stdout.endsWith(" true") && !r.stdout.startsWith(uid);
      },
      60_000,
    );
    await waitClusterReady(h, NAME);
    const again = (await etcdctlOk(endpoint, root, ["member", "list"])).trim().split("\n");
    assert.equal(again.length, 3);
    assert.ok(
      again.some((l) => l.startsWith(`${idBefore}, started, ${pod}, `)),
      "same member ID after the pod was recreated",
    );
    await etcdctlOk(endpoint, root, ["put", "after-recreate", "ok"]);
    await waitFor(
      "the recreated member serves the new key",
      async () =>
        (
          await etcdctl(alone, root, [
            "get",
            "after-recreate",
            "--print-value-only",
            "--consistency=s",
          ])
        ).stdout.trim() === "ok",
      30_000,
    );
  });

  it("enforces per-user roles on key prefixes for client certificates with other CNs", async () => {
    for (const u of ["a", "b"]) {
      await etcdctlOk(endpoint, root, ["role", "add", u]);
      await etcdctlOk(endpoint, root, [
        "role",
        "grant-permission",
        u,
        "--prefix=true",
        "readwrite",
        `/${u}/`,
      ]);
      await etcdctlOk(endpoint, root, ["user", "add", u, "--no-password"]);
      await etcdctlOk(endpoint, root, ["user", "grant-role", u, u]);
      await etcdctlOk(endpoint, root, ["put", `/${u}/secret`, `${u}-data`]);
    }
    const a = await issueClientFiles(h, tlsSecrets(NAME).ca, "a");
    const b = await issueClientFiles(h, tlsSecrets(NAME).ca, "b");
    files.push(a, b);
    for (const [me, mine, theirs] of [
      [a, "a", "b"],
      [b, "b", "a"],
    ] as const) {
      assert.equal(
        (await etcdctlOk(endpoint, me, ["get", `/${mine}/secret`, "--print-value-only"])).trim(),
        `${mine}-data`,
      );
      await etcdctlOk(endpoint, me, ["put", `/${mine}/new`, "x"]);
      for (const args of [
        ["get", `/${theirs}/secret`],
        ["put", `/${theirs}/x`, "y"],
        ["get", "greeting"],
      ]) {
        const r = await etcdctl(endpoint, me, args);
        assert.notEqual(r.code, 0, `${mine} may not ${args.join(" ")}`);
        assert.match(r.stderr, /permission denied/);
      }
    }
  });

  it("replaces a member deleted by hand, and removes an etcd member no EtcdMember stands for", async () => {
    const names = async () =>
      (await jsonpath(h, ["etcdmembers"], "{.items[*].metadata.name}")).split(" ").sort();
    const etcdNames = async () =>
      (await etcdctlOk(endpoint, root, ["member", "list"]))
        .trim()
        .split("\n")
        .map((l) => l.split(", ")[2])
        .sort();
    const before = await names();
    await h.kubectlOk(["delete", "etcdmember", before[0]!, "--timeout=60s"]);
    await waitFor(
      "a new member in its place, all ready",
      async () => {
        const s = JSON.parse(await jsonpath(h, ["etcdcluster", NAME], "{.status}"));
        return (
          s.readyMembers === 3 && !s.members.some((m: { name: string }) => m.name === before[0])
        );
      },
      120_000,
    );
    await waitClusterReady(h, NAME);
    assert.deepEqual(await etcdNames(), await names(), "etcd lists exactly the EtcdMembers");

    await etcdctlOk(endpoint, root, [
      "member",
      "add",
      "intruder",
      "--learner",
      "--peer-urls=https://127.9.9.9:2380",
    ]);
    await waitFor(
      "the intruder removed",
      async () => !(await etcdctlOk(endpoint, root, ["member", "list"])).includes("127.9.9.9"),
      60_000,
    );
    assert.deepEqual(await etcdNames(), await names());
    assert.match(
      await h.kubectlOk([
        "get",
        "events",
        "--field-selector",
        `involvedObject.name=${NAME},reason=StrayMemberRemoved`,
      ]),
      /removed etcd member/,
    );
  });

  it("deleting the EtcdCluster leaves no pod, process, claim, volume or owned Secret", async () => {
    const uids = (
      await jsonpath(h, ["pods", "-l", "etcd.hearth.io/cluster=etcd"], "{.items[*].metadata.uid}")
    ).split(" ");
    const procs = (await podProcesses(h.dataDir)).filter((p) => uids.includes(p.uid));
    assert.equal(procs.length, 3);
    await h.kubectlOk(["delete", "etcdcluster", NAME, "--timeout=90s"], { timeoutMs: 100_000 });
    await waitFor(
      "every object of the cluster gone but the kept Secrets",
      async () => {
        const left = await clusterLeftovers(h, NAME);
        return left ===
          `secret/${tlsSecrets(NAME).ca}\nsecret/${tlsSecrets(NAME).client}\nsecret/${tlsSecrets(NAME).peerCa}`
          ? left
          : undefined;
      },
      60_000,
    );
    await waitFor(
      "no PV left",
      async () => (await h.kubectlOk(["get", "pv", "-o", "name"])).trim() === "",
      60_000,
    );
    assert.deepEqual(readdirSync(join(h.dataDir, "volumes")), [], "no volume directory left");
    assert.equal(killProcesses(procs), 0, "no etcd process was left to kill");
    const s = tlsSecrets(NAME);
    await h.kubectlOk(["delete", "secret", s.ca, s.client, s.peerCa]);
    assert.equal(await clusterLeftovers(h, NAME), "", "no Secret of the cluster remains");
    assert.equal(
      (await h.kubectlOk(["get", "etcdmembers,pods,pvc", "-A", "-o", "name"])).trim(),
      "",
    );
  });

  async function memberId(member: string): Promise<string> {
    const members = JSON.parse(await jsonpath(h, ["etcdcluster", NAME], "{.status.members}")) as {
      name: string;
      id: string;
    }[];
    const id = members.find((m) => m.name === member)?.id;
    assert.ok(id, `member ${member} has an ID in the status`);
    return id;
  }
});
