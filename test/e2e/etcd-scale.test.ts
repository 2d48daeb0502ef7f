/**
 * Scaling an EtcdCluster 1 → 3 → 1 under a real `hearth up` while a client
 * keeps writing and reading through the client Service with etcdctl: members
 * join one at a time as learners and are promoted, leave newest first, and
 * every write etcd acknowledged is read back at the end. Failed attempts are
 * recorded (a connection the proxy sent to a member that was just leaving),
 * and the loop must keep making progress in every phase. Slow, so in its own file.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type CertFiles,
  etcdClusterObject,
  etcdctl,
  etcdctlOk,
  etcdHearthArgs,
  jsonpath,
  removeFiles,
  secretFiles,
  tlsSecrets,
  waitClusterReady,
} from "../support/etcd-cluster.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { applyObjects, stopAndClean } from "../support/node-pods.js";
import { podSkipReason } from "../support/test-network.js";

const NAME = "scaled";

interface Attempt {
  key: string;
  ok: boolean;
  phase: string;
  error?: string;
}

describe("etcd operator: scaling 1 → 3 → 1 under load", { skip: podSkipReason() }, () => {
  let h: Hearth;
  let root: CertFiles | undefined;

  before(async () => {
    h = await startHearth({ extraArgs: etcdHearthArgs() });
  });
  after(async () => {
    removeFiles(root);
    assert.equal(await stopAndClean(h), 0, "SIGTERM stopped every pod process");
  });

  /** etcd's member list as `[hex id, status, name, peer URL, client URL, learner]` rows. */
  const members = async (endpoint: string, files: CertFiles) =>
    (await etcdctlOk(endpoint, files, ["member", "list"]))
      .trim()
      .split("\n")
      .map((l) => l.split(", "));

  it("adds and removes members one at a time without losing an acknowledged write", async () => {
    await applyObjects(h, [etcdClusterObject(NAME, { replicas: 1, auth: true })]);
    await waitClusterReady(h, NAME);
    root = await secretFiles(h, tlsSecrets(NAME).client);
    const endpoint = `https://${await jsonpath(h, ["svc", `${NAME}-client`], "{.spec.clusterIP}")}:2379`;
    assert.equal((await members(endpoint, root)).length, 1);

    const attempts: Attempt[] = [];
    let phase = "1";
    let stop = false;
    const loop = (async () => {
      for (let n = 0; !stop; n++) {
        const key = `loop/${String(n).padStart(6, "0")}`;
        const r = await etcdctl(endpoint, root!, ["put", key, `v${n}`]);
        attempts.push({
          key,
          ok: r.code === 0,
          phase,
          ...(r.code === 0 ? {} : { error: r.stderr.trim().split("\n").pop()! }),
        });
      }
    })();
    const progress = (p: string) =>
      waitFor(
        `writes acknowledged in phase ${p}`,
        () => attempts.filter((a) => a.phase === p && a.ok).length >= 3,
        60_000,
      );

    try {
      await progress("1");
      phase = "1→3";
      await h.kubectlOk(["scale", "etcdcluster", NAME, "--replicas=3"]);
      const learnersSeen = new Set<string>();
      await waitFor(
        "3 voting members, all ready",
        async () => {
          const s = JSON.parse(await jsonpath(h, ["etcdcluster", NAME], "{.status}"));
          for (const m of s.members ?? []) if (m.learner) learnersSeen.add(m.name);
          return s.readyMembers === 3 && s.members?.length === 3 ? s : undefined;
        },
        180_000,
      );
      phase = "3";
      await waitClusterReady(h, NAME);
      const three = await members(endpoint, root);
      assert.equal(three.length, 3, "etcd lists 3 members");
      assert.ok(
        three.every((m) => m[1] === "started" && m[5] === "false"),
        "all started voters",
      );
      const events = await h.kubectlOk([
        "get",
        "events",
        "--field-selector",
        `involvedObject.name=${NAME}`,
        "-o",
        "jsonpath={.items[*].reason}",
      ]);
      assert.equal(
        events.split(" ").filter((r) => r === "MemberAdded").length,
        2,
        "two members added, as learners",
      );
      assert.equal(
        events.split(" ").filter((r) => r === "MemberPromoted").length,
        2,
        "and both promoted",
      );
      await progress("3");

      const oldest = three.map((m) => m[2]!).sort();
      const podsByAge = (
        await h.kubectlOk([
          "get",
          "etcdmembers",
          "--sort-by=.metadata.creationTimestamp",
          "-o",
          "jsonpath={.items[*].metadata.name}",
        ])
      ).split(" ");
      phase = "3→1";
      await h.kubectlOk(["scale", "etcdcluster", NAME, "--replicas=1"]);
      await waitFor(
        "1 member left, ready",
        async () => {
          const s = JSON.parse(await jsonpath(h, ["etcdcluster", NAME], "{.status}"));
          return s.readyMembers === 1 && s.members?.length === 1 ? s : undefined;
        },
        120_000,
      );
      phase = "1 again";
      await waitClusterReady(h, NAME);
      const one = await members(endpoint, root);
      assert.equal(one.length, 1, "etcd lists 1 member");
      assert.equal(one[0]![2], podsByAge[0], "the oldest member stays (newest removed first)");
      assert.ok(oldest.includes(one[0]![2]!));
      assert.equal(
        (
          await h.kubectlOk([
            "get",
            "pods,pvc,svc",
            "-l",
            "app.kubernetes.io/component",
            "-o",
            "name",
          ])
        )
          .trim()
          .split("\n").length,
        3,
        "one pod, claim and Service left",
      );
      await progress("1 again");
    } finally {
      stop = true;
      await loop;
    }

    const acknowledged = attempts.filter((a) => a.ok).map((a) => a.key);
    const stored = new Set(
      (await etcdctlOk(endpoint, root, ["get", "loop/", "--prefix", "--keys-only"], 60_000))
        .split("\n")
        .filter(Boolean),
    );
    const lost = acknowledged.filter((k) => !stored.has(k));
    assert.deepEqual(lost, [], "every acknowledged write is there");
    const failed = attempts.filter((a) => !a.ok);
    let streak = 0;
    let longest = 0;
    for (const a of attempts) {
      streak = a.ok ? 0 : streak + 1;
      longest = Math.max(longest, streak);
    }
    console.log(
      `scale loop: ${attempts.length} writes, ${acknowledged.length} acknowledged, ${failed.length} failed, longest failure streak ${longest}` +
        (failed.length ? `; e.g. ${failed[0]!.error}` : ""),
    );
    assert.ok(longest < 20, `the writer saw at most a short blip (longest streak ${longest})`);

    // 0 is dormant: the last member's pod goes, its claim and identity stay; 1 brings it back.
    const [id, , member] = (await members(endpoint, root))[0]!;
    await h.kubectlOk(["scale", "etcdcluster", NAME, "--replicas=0"]);
    await waitFor(
      "the last member's pod gone",
      async () => (await h.kubectl(["get", "pod", member!])).code === 1,
      60_000,
    );
    await waitClusterReady(h, NAME);
    assert.equal(await jsonpath(h, ["etcdcluster", NAME], "{.status.ready}"), "0/0");
    assert.equal(await jsonpath(h, ["pvc", `data-${member}`], "{.status.phase}"), "Bound");
    await h.kubectlOk(["scale", "etcdcluster", NAME, "--replicas=1"]);
    await waitFor(
      "the member back on its data",
      async () => (await jsonpath(h, ["etcdcluster", NAME], "{.status.ready}")) === "1/1",
      60_000,
    );
    const back = await members(endpoint, root);
    assert.deepEqual(
      back.map((m) => [m[0], m[2]]),
      [[id, member]],
      "the same member, same ID",
    );
    const last = acknowledged.at(-1)!;
    assert.equal(
      (await etcdctlOk(endpoint, root, ["get", last, "--print-value-only"])).trim(),
      `v${Number(last.slice("loop/".length))}`,
      "its data is still there",
    );
  });
});
