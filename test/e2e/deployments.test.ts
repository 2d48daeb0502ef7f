/**
 * Issue 15's Deployment acceptance, as a user runs it with the real kubectl
 * against `hearth up` on containers: `kubectl create deployment` of stock
 * nginx, `kubectl expose` and a busybox pod reaching it by ClusterIP, by name and by FQDN;
 * `kubectl set image` rolling without the Ready pods (on a watch) ever
 * dropping below replicas − maxUnavailable; `rollout history|undo
 * [--to-revision]|pause|resume|restart`, `kubectl scale`; a rollout to an
 * image the registry does not have stopping at ProgressDeadlineExceeded with
 * the old pods serving; bad input refused as Invalid with kube's field paths,
 * nothing written; foreground deletion through Deployment → ReplicaSet → Pod;
 * and `kill -9` of `hearth up` in the middle of a rolling update converging
 * to exactly the desired ReplicaSets and pods. Skips unless root with
 * containerd and the built images.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Deployment, ReplicaSet } from "../../src/api/apps.js";
import type { Pod } from "../../src/api/pod.js";
import { clientFromKubeconfig } from "../../src/client/index.js";
import { criSkipReason } from "../support/cri-node.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { testNetwork } from "../support/test-network.js";
import { replicasByRevision } from "../support/workloads.js";

const IMAGE = "nginx:1.22";
/** The same image by another name: a new template, so a real rollout. */
const OTHER_NAME = "docker.io/library/nginx:1.22";

/** The first container's image of a Deployment's or ReplicaSet's template. */
const imageOf = (o: { spec: { template?: { spec?: Record<string, unknown> } } }) =>
  (o.spec.template?.spec?.containers as { image?: string }[] | undefined)?.[0]?.image;

const isReady = (p: Pod) =>
  (p.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");

async function json<T>(h: Hearth, args: string[]): Promise<T> {
  return JSON.parse(await h.kubectlOk([...args, "-o", "json"])) as T;
}

const deployment = (h: Hearth, name: string) => json<Deployment>(h, ["get", "deployment", name]);
const replicaSets = async (h: Hearth, app: string) =>
  (await json<{ items: ReplicaSet[] }>(h, ["get", "rs", "-l", `app=${app}`])).items;
const pods = async (h: Hearth, app: string) =>
  (await json<{ items: Pod[] }>(h, ["get", "pods", "-l", `app=${app}`])).items;

/** `kubectl rollout status` until it reports success (it exits 0 only then). */
async function rolledOut(h: Hearth, name: string): Promise<void> {
  const out = await h.kubectlOk(["rollout", "status", `deployment/${name}`, "--timeout=150s"], {
    timeoutMs: 160_000,
  });
  assert.match(out, new RegExp(`deployment "${name}" successfully rolled out`));
}

/** What a busybox pod reads from each URL in turn (its log), the pod then deleted. */
async function fetchFromPod(h: Hearth, name: string, ...urls: string[]): Promise<string> {
  await h.kubectlOk([
    "run",
    name,
    "--image=busybox:1.35",
    "--restart=Never",
    "--",
    "sh",
    "-c",
    `for u in ${urls.join(" ")}; do timeout 5 wget -qO- $u || echo FAILED $u; done`,
  ]);
  await waitFor(
    `pod ${name} to finish`,
    async () => {
      const p = await json<Pod>(h, ["get", "pod", name]);
      return p.status?.phase === "Succeeded" || p.status?.phase === "Failed";
    },
    60_000,
  );
  const log = await h.kubectlOk(["logs", name]);
  await h.kubectlOk(["delete", "pod", name, "--now"]);
  return log;
}

describe("Deployments with kubectl on containers", { skip: criSkipReason() }, () => {
  let h: Hearth;
  before(async () => {
    h = await startHearth();
  });
  after(async () => {
    if (h && h.process.exitCode === null) assert.equal(await h.stop(), 0);
    await h?.cleanup();
  });

  let clusterIP = "";

  it("creates a Deployment with kubectl and serves it through a ClusterIP", async () => {
    await h.kubectlOk(["create", "deployment", "web", `--image=${IMAGE}`, "--replicas=3"]);
    await rolledOut(h, "web");
    const d = await deployment(h, "web");
    assert.deepEqual(d.spec.strategy, {
      type: "RollingUpdate",
      rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" },
    });
    assert.equal(d.spec.revisionHistoryLimit, 10);
    assert.equal(d.spec.progressDeadlineSeconds, 600);
    assert.equal(d.metadata.annotations?.["deployment.kubernetes.io/revision"], "1");
    const conditions = Object.fromEntries(
      (d.status?.conditions ?? []).map((c) => [c.type, c.reason]),
    );
    assert.deepEqual(conditions, {
      Available: "MinimumReplicasAvailable",
      Progressing: "NewReplicaSetAvailable",
    });
    const [rs, ...more] = await replicaSets(h, "web");
    assert.equal(more.length, 0);
    const hash = rs!.metadata.labels?.["pod-template-hash"];
    assert.ok(hash);
    assert.equal(rs!.metadata.name, `web-${hash}`);
    assert.equal(rs!.metadata.ownerReferences?.[0]?.uid, d.metadata.uid);
    assert.deepEqual(rs!.spec.selector, { matchLabels: { app: "web", "pod-template-hash": hash } });
    const running = await pods(h, "web");
    assert.equal(running.length, 3);
    for (const p of running) {
      assert.equal(p.metadata.ownerReferences?.[0]?.uid, rs!.metadata.uid);
      assert.ok(p.metadata.name?.startsWith(`web-${hash}-`));
    }
    const table = await h.kubectlOk(["get", "deploy", "web", "-o", "wide"]);
    assert.match(
      table,
      /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\n/,
    );
    assert.match(table, /\nweb\s+3\/3\s+3\s+3\s+\S+\s+nginx\s+nginx:1\.22\s+app=web\n/);
    const rsTable = await h.kubectlOk(["get", "rs"]);
    assert.match(rsTable, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\n/);
    assert.match(rsTable, new RegExp(`\\nweb-${hash}\\s+3\\s+3\\s+3\\s`));

    await h.kubectlOk(["expose", "deployment", "web", "--port=80"]);
    clusterIP = (
      await h.kubectlOk(["get", "svc", "web", "-o", "jsonpath={.spec.clusterIP}"])
    ).trim();
    // By address, by the Service's short name and by its FQDN (cluster DNS, the search list).
    const pages = await fetchFromPod(
      h,
      "probe-1",
      `http://${clusterIP}/`,
      "http://web/",
      "http://web.default.svc.cluster.local/",
    );
    assert.doesNotMatch(pages, /FAILED/);
    assert.equal(pages.match(/<h1>Welcome to nginx!<\/h1>/g)?.length, 3, pages);
  });

  it("rolls a new image without dropping below replicas - maxUnavailable Ready pods", async () => {
    const client = await clientFromKubeconfig(h.kubeconfig);
    const stop = new AbortController();
    const ready = new Map<string, boolean>();
    let lowest = Number.POSITIVE_INFINITY;
    let events = 0;
    const list = await client.list<Pod>(
      { apiVersion: "v1", kind: "Pod" },
      { namespace: "default", labelSelector: "app=web" },
    );
    for (const p of list.items) ready.set(p.metadata.uid!, isReady(p));
    const watching = (async () => {
      for await (const ev of client.watch<Pod>(
        { apiVersion: "v1", kind: "Pod" },
        {
          namespace: "default",
          labelSelector: "app=web",
          resourceVersion: list.metadata?.resourceVersion,
          signal: stop.signal,
        },
      )) {
        events++;
        const p = ev.object;
        if (ev.type === "DELETED") ready.delete(p.metadata.uid!);
        else ready.set(p.metadata.uid!, isReady(p) && !p.metadata.deletionTimestamp);
        lowest = Math.min(lowest, [...ready.values()].filter(Boolean).length);
      }
    })();
    await h.kubectlOk(["set", "image", "deployment/web", `nginx=${OTHER_NAME}`]);
    await rolledOut(h, "web");
    stop.abort();
    await watching.catch(() => {});
    // 3 replicas at 25%: maxUnavailable rounds down to 0, maxSurge up to 1.
    assert.ok(events > 0, "the watch saw the rollout");
    assert.ok(lowest >= 3, `Ready pods never below 3 (lowest ${lowest})`);
    const sets = await replicaSets(h, "web");
    assert.equal(sets.length, 2);
    assert.deepEqual(replicasByRevision(sets), { "1": 0, "2": 3 });
    const now = await pods(h, "web");
    assert.equal(now.filter((p) => !p.metadata.deletionTimestamp).length, 3);
    for (const p of now.filter((p) => !p.metadata.deletionTimestamp))
      assert.equal(p.spec.containers[0]!.image, OTHER_NAME);
  });

  it("lists the history and undoes to the previous and to a given revision", async () => {
    const history = await h.kubectlOk(["rollout", "history", "deployment/web"]);
    assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n/);
    await h.kubectlOk(["rollout", "undo", "deployment/web"]);
    await rolledOut(h, "web");
    let d = await deployment(h, "web");
    assert.equal(imageOf(d), IMAGE);
    assert.equal(d.metadata.annotations?.["deployment.kubernetes.io/revision"], "3");
    // The first ReplicaSet came back as revision 3 and remembers it was 1.
    const back = (await replicaSets(h, "web")).find((rs) => rs.spec.replicas === 3)!;
    assert.equal(back.metadata.annotations?.["deployment.kubernetes.io/revision"], "3");
    assert.equal(back.metadata.annotations?.["deployment.kubernetes.io/revision-history"], "1");
    await h.kubectlOk(["rollout", "undo", "deployment/web", "--to-revision=2"]);
    await rolledOut(h, "web");
    d = await deployment(h, "web");
    assert.equal(imageOf(d), OTHER_NAME);
    assert.equal((await replicaSets(h, "web")).length, 2, "an undo reuses ReplicaSets");
  });

  it("scales with kubectl scale, through the scale subresource", async () => {
    await h.kubectlOk(["scale", "deployment/web", "--replicas=4"]);
    await rolledOut(h, "web");
    const scale = JSON.parse(
      await h.kubectlOk(["get", "--raw", "/apis/apps/v1/namespaces/default/deployments/web/scale"]),
    ) as {
      kind: string;
      spec: { replicas: number };
      status: { replicas: number; selector: string };
    };
    assert.equal(scale.kind, "Scale");
    assert.equal(scale.spec.replicas, 4);
    assert.deepEqual(scale.status, { replicas: 4, selector: "app=web" });
    const rs = (await replicaSets(h, "web")).find((r) => (r.spec.replicas ?? 0) > 0)!;
    assert.equal(rs.metadata.annotations?.["deployment.kubernetes.io/desired-replicas"], "4");
    assert.equal(rs.metadata.annotations?.["deployment.kubernetes.io/max-replicas"], "5");
    await h.kubectlOk(["scale", `rs/${rs.metadata.name}`, "--replicas=4"]);
  });

  it("stops a rollout to a missing image at ProgressDeadlineExceeded, old pods serving", async () => {
    await h.kubectlOk(["patch", "deployment/web", "-p", '{"spec":{"progressDeadlineSeconds":10}}']);
    await h.kubectlOk(["set", "image", "deployment/web", "nginx=nginx:0.0-missing"]);
    const stuck = await waitFor(
      "Progressing False ProgressDeadlineExceeded",
      async () => {
        const d = await deployment(h, "web");
        const c = d.status?.conditions?.find((x) => x.type === "Progressing");
        return c?.status === "False" && c.reason === "ProgressDeadlineExceeded" ? d : undefined;
      },
      60_000,
    );
    const newName = (await replicaSets(h, "web")).find((rs) => imageOf(rs) === "nginx:0.0-missing")
      ?.metadata.name;
    assert.equal(
      stuck.status?.conditions?.find((x) => x.type === "Progressing")?.message,
      `ReplicaSet "${newName}" has timed out progressing.`,
    );
    const status = await h.kubectl(["rollout", "status", "deployment/web", "--timeout=20s"]);
    assert.notEqual(status.code, 0);
    assert.match(status.stderr, /deployment "web" exceeded its progress deadline/);
    // 4 replicas at 25%: one may be unavailable, so three old pods stay Ready.
    const old = (await pods(h, "web")).filter(
      (p) => p.spec.containers[0]!.image === OTHER_NAME && isReady(p),
    );
    assert.ok(old.length >= 3, `${old.length} old pods still Ready`);
    assert.equal(stuck.status?.availableReplicas, old.length);
    assert.match(await fetchFromPod(h, "probe-2", `http://${clusterIP}/`), /Welcome to nginx!/);
    await h.kubectlOk(["rollout", "undo", "deployment/web"]);
    await rolledOut(h, "web");
  });

  it("does not roll while paused, and rolls on resume and restart", async () => {
    await h.kubectlOk(["rollout", "pause", "deployment/web"]);
    const before = (await replicaSets(h, "web")).length;
    await h.kubectlOk(["set", "image", "deployment/web", `nginx=${IMAGE}`]);
    const paused = await waitFor("the Paused condition", async () => {
      const d = await deployment(h, "web");
      const c = d.status?.conditions?.find((x) => x.type === "Progressing");
      return c?.reason === "DeploymentPaused" ? c : undefined;
    });
    assert.equal(paused.status, "Unknown");
    assert.equal((await replicaSets(h, "web")).length, before, "no ReplicaSet while paused");
    await h.kubectlOk(["rollout", "resume", "deployment/web"]);
    await rolledOut(h, "web");
    await h.kubectlOk(["rollout", "restart", "deployment/web"]);
    await rolledOut(h, "web");
    const d = await deployment(h, "web");
    assert.ok(d.spec.template.metadata?.annotations?.["kubectl.kubernetes.io/restartedAt"]);
  });

  it("refuses bad input as Invalid with kube's field paths, writing nothing", async () => {
    const bad = (name: string, spec: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
${spec}
`;
    const template = `  template:
    metadata: {labels: {app: "aa"}}
    spec: {containers: [{name: c, image: "busybox:1.35"}]}`;
    const cases: [string, string, string[]][] = [
      [
        "mismatch",
        `  selector: {matchLabels: {app: "bb"}}\n${template}`,
        [
          "spec.template.metadata.labels: Invalid value: ",
          "`selector` does not match template `labels`",
        ],
      ],
      [
        "negative",
        `  replicas: -1\n  selector: {matchLabels: {app: "aa"}}\n${template}`,
        ["spec.replicas: Invalid value: -1: must be greater than or equal to 0"],
      ],
      [
        "zeroes",
        `  selector: {matchLabels: {app: "aa"}}\n  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}\n${template}`,
        [
          "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
        ],
      ],
      ["noselector", template, ["spec.selector: Required value"]],
    ];
    for (const [name, spec, messages] of cases) {
      const r = await h.kubectl(["apply", "-f", "-"], { input: bad(name, spec) });
      assert.notEqual(r.code, 0, name);
      assert.match(r.stderr, new RegExp(`The Deployment "${name}" is invalid`));
      for (const m of messages) assert.ok(r.stderr.includes(m), `${name}: ${r.stderr}`);
      const got = await h.kubectl(["get", "deployment", name]);
      assert.match(got.stderr, /NotFound/, `${name} was not written`);
    }
    const before = await deployment(h, "web");
    const r = await h.kubectl([
      "patch",
      "deployment/web",
      "-p",
      '{"spec":{"selector":{"matchLabels":{"app":"other"}},"template":{"metadata":{"labels":{"app":"other"}}}}}',
    ]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.selector: Invalid value: .*: field is immutable/);
    const after = await deployment(h, "web");
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it("deletes the Deployment in the foreground after its ReplicaSets and pods", async () => {
    await h.kubectlOk(["delete", "deployment", "web", "--cascade=foreground", "--timeout=120s"], {
      timeoutMs: 130_000,
    });
    assert.equal((await replicaSets(h, "web")).length, 0);
    await waitFor("the pods gone", async () => (await pods(h, "web")).length === 0, 60_000);
  });
});

describe("kill -9 of hearth up in the middle of a rolling update", {
  skip: criSkipReason(),
}, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-deploy-crash-"));
  const args = testNetwork().args;
  const started: Hearth[] = [];
  after(async () => {
    for (const h of started)
      if (h.process.exitCode === null && h.process.signalCode === null) await h.stop();
    for (const h of started) await h.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = async () => {
    const h = await startHearth({ dataDir, extraArgs: args });
    started.push(h);
    return h;
  };

  it("converges to exactly the desired ReplicaSets and pods", async () => {
    let h = await start();
    await h.kubectlOk(["create", "deployment", "crash", `--image=${IMAGE}`, "--replicas=4"]);
    // One pod at a time, each waiting 3 s to count as available: a slow rollout to crash into.
    await h.kubectlOk([
      "patch",
      "deployment/crash",
      "-p",
      '{"spec":{"minReadySeconds":3,"strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":0}}}}',
    ]);
    await rolledOut(h, "crash");
    await h.kubectlOk(["set", "image", "deployment/crash", `nginx=${OTHER_NAME}`]);
    await waitFor(
      "the rollout half way",
      async () => {
        const sets = await replicaSets(h, "crash");
        const fresh = sets.find((rs) => imageOf(rs) === OTHER_NAME);
        const old = sets.find((rs) => rs !== fresh);
        return (fresh?.status?.availableReplicas ?? 0) >= 1 && (old?.spec.replicas ?? 0) > 0;
      },
      90_000,
    );
    await h.kill9();
    h = await start();
    await rolledOut(h, "crash");
    const d = await deployment(h, "crash");
    assert.equal(d.status?.replicas, 4);
    assert.equal(d.status?.updatedReplicas, 4);
    assert.equal(d.status?.availableReplicas, 4);
    const sets = await replicaSets(h, "crash");
    assert.equal(sets.length, 2, "no ReplicaSet duplicated");
    const fresh = sets.find((rs) => imageOf(rs) === OTHER_NAME)!;
    const old = sets.find((rs) => rs !== fresh)!;
    assert.equal(fresh.spec.replicas, 4);
    assert.equal(old.spec.replicas, 0);
    assert.equal(fresh.metadata.annotations?.["deployment.kubernetes.io/revision"], "2");
    await waitFor(
      "only the new ReplicaSet's four pods",
      async () => {
        const all = await pods(h, "crash");
        const owners = new Set(all.map((p) => p.metadata.ownerReferences?.[0]?.uid));
        return (
          all.length === 4 &&
          owners.size === 1 &&
          owners.has(fresh.metadata.uid) &&
          all.every((p) => isReady(p) && !p.metadata.deletionTimestamp)
        );
      },
      90_000,
    );
    await h.kubectlOk(["delete", "deployment", "crash", "--cascade=foreground", "--timeout=120s"], {
      timeoutMs: 130_000,
    });
    await waitFor("the pods gone", async () => (await pods(h, "crash")).length === 0, 60_000);
  });
});
