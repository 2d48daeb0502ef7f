/**
 * Issue 15's StatefulSet acceptance under a real `hearth up`, with kubectl and
 * etcdctl as a user would: a 3-replica StatefulSet of real etcd servers behind
 * a headless Service, each with a claim from volumeClaimTemplates. Its pods
 * start in order (each added only once the one before is Ready, seen on a
 * watch); each pod's processes see its name as hostname and the Service's EndpointSlice
 * lists it under that hostname; a key written to kv-1 survives `kubectl delete
 * pod kv-1` (same name, same claim); scaling 3 → 1 → 3 keeps the claims under
 * `whenScaled: Retain` and deletes them under `Delete`; `kill -9` of `hearth
 * up` during a scale-up converges to exactly the pods, claims and revision
 * wanted; bad input is refused as kube-apiserver words it, changing nothing.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Pod } from "../../src/api/pod.js";
import type { KubeObject } from "../../src/api/types.js";
import { clientFromKubeconfig, type HttpClient } from "../../src/client/index.js";
import { PodExec } from "../support/cri-exec.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { applyObjects, etcdGet, etcdPut, killPodProcesses } from "../support/node-pods.js";
import { testNetwork } from "../support/test-network.js";

const url = (port: number) => `http://$(POD_IP):${port}`;

const service = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "kv" },
  spec: {
    clusterIP: "None",
    selector: { app: "kv" },
    ports: [{ name: "client", port: 2379 }],
  },
};

function statefulSet(replicas: number) {
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "kv" },
    spec: {
      replicas,
      serviceName: "kv",
      selector: { matchLabels: { app: "kv" } },
      template: {
        metadata: { labels: { app: "kv" } },
        spec: {
          terminationGracePeriodSeconds: 2,
          containers: [
            {
              name: "etcd",
              image: "etcd",
              command: ["etcd"],
              env: [
                { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
                { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
              ],
              args: [
                "--name=$(POD_NAME)",
                "--data-dir=/var/lib/etcd",
                `--listen-client-urls=${url(2379)}`,
                `--advertise-client-urls=${url(2379)}`,
                `--listen-peer-urls=${url(2380)}`,
                `--initial-advertise-peer-urls=${url(2380)}`,
                `--initial-cluster=$(POD_NAME)=${url(2380)}`,
              ],
              ports: [{ name: "client", containerPort: 2379 }],
              readinessProbe: { httpGet: { path: "/health", port: "client" }, periodSeconds: 1 },
              volumeMounts: [{ name: "data", mountPath: "/var/lib/etcd" }],
            },
            // Says what hostname the pod's processes see (in its log); nslookup runs in it too.
            { name: "host", image: "busybox", command: ["sh", "-c", "hostname; exec sleep 3600"] },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: "data" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "64Mi" } } },
        },
      ],
    },
  };
}

const ready = (p: Pod) =>
  p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;

describe("a StatefulSet of etcd servers with claims, under hearth up", () => {
  const net = testNetwork();
  const started: Hearth[] = [];
  let h: Hearth;
  let client: HttpClient;

  const start = async (dataDir?: string) => {
    h = await startHearth({
      ...(dataDir ? { dataDir } : {}),
      extraArgs: [...net.args, "--crashloop-backoff-base-ms", "1000"],
      timeoutMs: 120_000,
    });
    started.push(h);
    client?.close();
    client = await clientFromKubeconfig(h.kubeconfig);
  };
  before(() => start());
  after(async () => {
    client?.close();
    let leftover = 0;
    // Every instance is stopped before any is searched: a restarted one shares the data directory.
    for (const s of started)
      if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
    for (const dir of new Set(started.map((s) => s.dataDir)))
      leftover += await killPodProcesses(dir);
    for (const s of started) await s.cleanup();
    assert.equal(leftover, 0, "SIGTERM stopped every pod process");
  });

  const json = async <T>(args: string[]) =>
    JSON.parse(await h.kubectlOk(["get", ...args, "-o", "json"])) as T;
  const pods = async () =>
    (await json<{ items: Pod[] }>(["pods", "-l", "app=kv"])).items.sort((a, b) =>
      a.metadata.name! < b.metadata.name! ? -1 : 1,
    );
  const claims = async () =>
    (await json<{ items: KubeObject[] }>(["pvc"])).items
      .map((c) => ({ name: c.metadata.name!, uid: c.metadata.uid! }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  const readyPods = (n: number, timeoutMs = 120_000) =>
    waitFor(
      `${n} ready kv pods`,
      async () => {
        const all = await pods();
        const live = all.filter((p) => !p.metadata.deletionTimestamp);
        return all.length === n && live.every(ready) ? live : undefined;
      },
      timeoutMs,
    );
  const scale = (n: number) => h.kubectlOk(["scale", "statefulset", "kv", `--replicas=${n}`]);
  const readyStatus = (n: number) =>
    waitFor(
      `kv status ${n}/${n}`,
      async () => {
        const s = await json<{ status?: Record<string, unknown> }>(["sts", "kv"]);
        return s.status?.readyReplicas === n && s.status?.replicas === n ? s.status : undefined;
      },
      60_000,
    );

  it("starts its pods in order, each named, addressed and listed by its hostname", async () => {
    const rv = (await client.list({ apiVersion: "v1", kind: "Pod" }, { namespace: "default" }))
      .metadata.resourceVersion;
    const stop = new AbortController();
    /** Each pod's first appearance, and whether every lower ordinal was Ready then. */
    const added: { name: string; lowerReady: boolean }[] = [];
    const readyNow = new Set<string>();
    const watching = (async () => {
      for await (const ev of client.watch<Pod>(
        { apiVersion: "v1", kind: "Pod" },
        { namespace: "default", resourceVersion: rv, signal: stop.signal },
      )) {
        const name = ev.object.metadata.name!;
        if (ev.type === "ADDED") {
          const ord = Number(name.split("-")[1]);
          const lower = Array.from({ length: ord }, (_, i) => `kv-${i}`);
          added.push({ name, lowerReady: lower.every((n) => readyNow.has(n)) });
        }
        if (ready(ev.object)) readyNow.add(name);
      }
    })();
    await applyObjects(h, [service, statefulSet(3)]);
    const live = await readyPods(3);
    stop.abort();
    await watching;
    assert.deepEqual(added, [
      { name: "kv-0", lowerReady: true },
      { name: "kv-1", lowerReady: true },
      { name: "kv-2", lowerReady: true },
    ]);
    for (const p of live) {
      assert.equal(p.spec.hostname, p.metadata.name);
      assert.equal(p.spec.subdomain, "kv");
      const host = await h.kubectlOk(["logs", p.metadata.name!, "-c", "host"]);
      assert.equal(host.trim(), p.metadata.name);
    }
    const slices = await waitFor("the headless Service's slice lists the three", async () => {
      const list = await json<{
        items: { endpoints?: { hostname?: string; addresses: string[] }[] }[];
      }>(["endpointslices", "-l", "kubernetes.io/service-name=kv"]);
      const eps = list.items.flatMap((s) => s.endpoints ?? []);
      return eps.length === 3 ? eps : undefined;
    });
    const byIp = new Map(live.map((p) => [p.status?.podIP, p.metadata.name]));
    for (const ep of slices) assert.equal(ep.hostname, byIp.get(ep.addresses[0]));
    // Each pod's name resolves by cluster DNS to its address, from a pod of the set.
    const pods = await PodExec.connect(h.dataDir);
    try {
      for (const p of live) {
        const fqdn = `${p.metadata.name}.kv.default.svc.cluster.local`;
        const r = await waitFor(`${fqdn} to resolve`, async () => {
          const r = await pods.exec("kv-0", ["nslookup", fqdn], "default", 10, "host");
          return r.code === 0 ? r : undefined;
        });
        assert.match(r.output, new RegExp(`Address: ${p.status?.podIP}\\b`), r.output);
      }
    } finally {
      pods.close();
    }
    assert.deepEqual(
      (await claims()).map((c) => c.name),
      ["data-kv-0", "data-kv-1", "data-kv-2"],
    );
    const table = await h.kubectlOk(["get", "sts", "kv"]);
    assert.match(table, /^NAME\s+READY\s+AGE\n/);
    assert.match(table, /\nkv\s+3\/3\s+/);
    await readyStatus(3);
  });

  it("keeps kv-1's data across its deletion: the same name and the same claim", async () => {
    const before = (await pods()).find((p) => p.metadata.name === "kv-1")!;
    await etcdPut(`http://${before.status?.podIP}:2379`, "greeting", "hello");
    const claim = (await claims()).find((c) => c.name === "data-kv-1")!;
    await h.kubectlOk(["delete", "pod", "kv-1"]);
    const again = await waitFor(
      "a new kv-1, Ready",
      async () => {
        const p = (await pods()).find((x) => x.metadata.name === "kv-1");
        return p && p.metadata.uid !== before.metadata.uid && ready(p) ? p : undefined;
      },
      120_000,
    );
    assert.equal(
      again.spec.volumes?.find((v) => v.name === "data")?.persistentVolumeClaim?.claimName,
      "data-kv-1",
    );
    assert.deepEqual(
      (await claims()).find((c) => c.name === "data-kv-1"),
      claim,
    );
    assert.equal(await etcdGet(`http://${again.status?.podIP}:2379`, "greeting"), "hello");
  });

  it("scales 3 → 1 → 3 keeping claims under Retain and deleting them under Delete", async () => {
    const kept = await claims();
    await scale(1);
    await readyPods(1);
    assert.deepEqual(await claims(), kept, "whenScaled Retain keeps every claim");
    await scale(3);
    await readyPods(3);
    assert.deepEqual(await claims(), kept, "the same claims come back into use");
    const again = (await pods()).find((p) => p.metadata.name === "kv-1")!;
    assert.equal(await etcdGet(`http://${again.status?.podIP}:2379`, "greeting"), "hello");

    await h.kubectlOk([
      "patch",
      "sts",
      "kv",
      "--type=merge",
      "-p",
      '{"spec":{"persistentVolumeClaimRetentionPolicy":{"whenScaled":"Delete"}}}',
    ]);
    await scale(1);
    await readyPods(1);
    await waitFor(
      "the claims of kv-1 and kv-2 deleted",
      async () => (await claims()).map((c) => c.name).join() === "data-kv-0",
      60_000,
    );
    await scale(3);
    await readyPods(3);
    const fresh = await claims();
    assert.deepEqual(
      fresh.map((c) => c.name),
      ["data-kv-0", "data-kv-1", "data-kv-2"],
    );
    assert.equal(fresh[0]!.uid, kept[0]!.uid, "kv-0's claim never left");
    assert.notEqual(fresh[1]!.uid, kept[1]!.uid, "kv-1 got a new claim");
    await readyStatus(3);
  });

  it("converges after kill -9 of hearth up during a scale-up, nothing duplicated or orphaned", async () => {
    await scale(1);
    await readyPods(1);
    await scale(3);
    await waitFor("the scale-up under way", async () => (await pods()).length >= 2, 60_000);
    await h.kill9();
    await start(h.dataDir);
    const live = await readyPods(3, 180_000);
    assert.deepEqual(
      live.map((p) => p.metadata.name),
      ["kv-0", "kv-1", "kv-2"],
    );
    for (const p of live) {
      const owners = p.metadata.ownerReferences ?? [];
      assert.equal(owners.length, 1);
      assert.equal(owners[0]!.kind, "StatefulSet");
    }
    assert.deepEqual(
      (await claims()).map((c) => c.name),
      ["data-kv-0", "data-kv-1", "data-kv-2"],
    );
    const revisions = await json<{ items: { revision: number }[] }>(["controllerrevisions"]);
    assert.equal(revisions.items.length, 1, "one template, one revision");
    const status = await readyStatus(3);
    assert.equal(status.currentRevision, status.updateRevision);
    const pvs = await json<{ items: KubeObject[] }>(["pv"]);
    const bound = pvs.items.filter(
      (pv) => (pv.status as { phase?: string } | undefined)?.phase === "Bound",
    );
    assert.equal(bound.length, 3, "one bound volume per claim");
  });

  it("refuses a selector that does not match and a changed volumeClaimTemplates, changing nothing", async () => {
    const bad = statefulSet(1);
    bad.metadata.name = "bad";
    bad.spec.selector.matchLabels.app = "other";
    const refused = await h.kubectl(["apply", "-f", "-"], { input: JSON.stringify(bad) });
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /The StatefulSet "bad" is invalid: spec\.template\.metadata\.labels: Invalid value: .*`selector` does not match template `labels`/,
    );
    assert.notEqual((await h.kubectl(["get", "sts", "bad"])).code, 0, "nothing was created");
    const before = await json<KubeObject>(["sts", "kv"]);
    const changed = await h.kubectl([
      "patch",
      "sts",
      "kv",
      "--type=merge",
      "-p",
      '{"spec":{"volumeClaimTemplates":[{"metadata":{"name":"other"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Mi"}}}}]}}',
    ]);
    assert.notEqual(changed.code, 0);
    assert.match(
      changed.stderr,
      /spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden/,
    );
    const negative = await h.kubectl(["scale", "sts", "kv", "--replicas=-1"]);
    assert.notEqual(negative.code, 0);
    const after = await json<KubeObject>(["sts", "kv"]);
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });
});
