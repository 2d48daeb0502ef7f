/**
 * Issue 4's etcd acceptance under a real `hearth up`, with kubectl and etcdctl
 * as a user would: a Pod running the real etcd on its pod IP with a
 * PersistentVolumeClaim as its data directory becomes Ready (an httpGet probe);
 * etcdctl writes and reads a key through the Service's ClusterIP (the node's
 * nftables rules); `kubectl logs` shows etcd's output; killing the etcd process
 * restarts it with a higher restartCount and the key is still there (on the
 * volume). Deleting the pod and then the claim frees the directory in
 * DIR/volumes before the PV goes; a claim deleted while a running pod mounts it
 * stays Terminating, with its directory, until that pod is gone.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Pod } from "../../src/api/pod.js";
import type { KubeObject } from "../../src/api/types.js";
import { clientFromKubeconfig, type HttpClient } from "../../src/client/index.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import {
  applyObjects,
  etcdGet,
  etcdPod,
  etcdPut,
  etcdService,
  podProcesses,
  shPod,
  stopAndClean,
} from "../support/node-pods.js";
import { claimYaml } from "../support/storage-env.js";
import { podSkipReason, testNetwork } from "../support/test-network.js";

interface Seen {
  type: string;
  kind: string;
  name: string;
  rv: number;
  phase?: string;
  /** For a PersistentVolume: whether its directory existed when the event arrived. */
  dirExists?: boolean;
}

describe("etcd in a pod with a claim, behind a Service, under hearth up", {
  skip: podSkipReason(),
}, () => {
  let h: Hearth;
  let client: HttpClient;
  const net = testNetwork();
  const clusterIP = net.clusterIp();
  const endpoint = `http://${clusterIP}:2379`;

  before(async () => {
    h = await startHearth({
      extraArgs: [...net.args, "--crashloop-backoff-base-ms", "1000"],
    });
    client = await clientFromKubeconfig(h.kubeconfig);
  });
  after(async () => {
    client?.close();
    assert.equal(await stopAndClean(h), 0, "SIGTERM stopped every pod process");
  });

  const pod = async (name: string) =>
    JSON.parse(await h.kubectlOk(["get", "pod", name, "-o", "json"])) as Pod;
  const jsonpath = async (args: string[], path: string) => {
    const r = await h.kubectl(["get", ...args, "-o", `jsonpath=${path}`]);
    return r.code === 0 ? r.stdout : undefined;
  };
  const volumeDir = (pv: string) => join(h.dataDir, "volumes", pv);

  it("becomes Ready, serves etcdctl through the ClusterIP, logs, and restarts with its data", async () => {
    await h.kubectlOk(["apply", "-f", "-"], { input: claimYaml("etcd-data", "1Gi") });
    await applyObjects(h, [
      etcdPod("etcd", {
        labels: { app: "etcd" },
        data: { name: "data", persistentVolumeClaim: { claimName: "etcd-data" } },
        readinessProbe: { httpGet: { path: "/health", port: "client" }, periodSeconds: 1 },
      }),
      etcdService("etcd", clusterIP, { app: "etcd" }),
    ]);
    await h.kubectlOk(["wait", "--for=condition=Ready", "pod/etcd", "--timeout=60s"]);
    const first = await pod("etcd");
    assert.equal(first.status?.containerStatuses?.[0]?.restartCount, 0);
    assert.equal(await jsonpath(["svc", "etcd"], "{.spec.clusterIP}"), clusterIP);
    const pvName = (await jsonpath(["pvc", "etcd-data"], "{.spec.volumeName}"))!;
    assert.ok(existsSync(volumeDir(pvName)), "the claim's directory in DIR/volumes");

    // The rules forward once the EndpointSlice lists the ready pod.
    await etcdPut(endpoint, "greeting", "hello");
    assert.equal(await etcdGet(endpoint, "greeting"), "hello");
    // etcd wrote its data into the claim's directory.
    assert.ok(readdirSync(volumeDir(pvName)).includes("member"), "etcd's member dir on the PV");

    const etcdOutput = /etcd[- ]version/i;
    assert.match(await h.kubectlOk(["logs", "etcd"]), etcdOutput);

    const uid = first.metadata.uid!;
    const [killed] = (await podProcesses(h.dataDir)).filter((p) => p.uid === uid);
    assert.ok(killed, "etcd runs in a container");
    process.kill(killed.pid, "SIGKILL");
    const restarted = await waitFor(
      "etcd restarted and Ready",
      async () => {
        const s = (await pod("etcd")).status?.containerStatuses?.[0];
        return s && s.restartCount === 1 && s.ready ? s : undefined;
      },
      30_000,
    );
    assert.equal(restarted.lastState?.terminated?.exitCode, 137);
    const [now] = (await podProcesses(h.dataDir)).filter((p) => p.uid === uid);
    assert.ok(now && now.pid !== killed.pid, "a new etcd process");
    assert.match(await h.kubectlOk(["logs", "etcd", "--previous"]), etcdOutput);
    assert.equal(
      await etcdGet(endpoint, "greeting"),
      "hello",
      "the key survived the restart, on the volume",
    );
  });

  it("frees volumes after their pods: pod then claim, and a claim deleted while mounted", async () => {
    await h.kubectlOk(["apply", "-f", "-"], { input: claimYaml("held", "1Gi") });
    await applyObjects(h, [
      shPod("holder", [{ name: "data", persistentVolumeClaim: { claimName: "held" } }]),
    ]);
    await h.kubectlOk(["wait", "--for=condition=Ready", "pod/holder", "--timeout=60s"]);
    const etcdPv = (await jsonpath(["pvc", "etcd-data"], "{.spec.volumeName}"))!;
    const heldPv = (await jsonpath(["pvc", "held"], "{.spec.volumeName}"))!;
    assert.ok(existsSync(join(volumeDir(heldPv), "starts")), "the pod wrote into its volume");

    // Every change to pods, claims and volumes from now on, in revision order.
    const seen: Seen[] = [];
    const stopWatches = new AbortController();
    const watch = async (kind: string) => {
      const list = await client.list({ apiVersion: "v1", kind });
      const events = client.watch<KubeObject & { status?: { phase?: string } }>(
        { apiVersion: "v1", kind },
        { resourceVersion: list.metadata.resourceVersion!, signal: stopWatches.signal },
      );
      return {
        done: (async () => {
          for await (const ev of events) {
            const name = ev.object.metadata.name!;
            seen.push({
              type: ev.type,
              kind,
              name,
              rv: Number(ev.object.metadata.resourceVersion),
              ...(ev.object.status?.phase ? { phase: ev.object.status.phase } : {}),
              ...(kind === "PersistentVolume" ? { dirExists: existsSync(volumeDir(name)) } : {}),
            });
          }
        })(),
      };
    };
    const watching = await Promise.all(
      ["Pod", "PersistentVolumeClaim", "PersistentVolume"].map(watch),
    );
    const deleted = (kind: string, name: string) =>
      seen.find((e) => e.type === "DELETED" && e.kind === kind && e.name === name);
    try {
      // A claim deleted while a running pod mounts it only gets Terminating.
      await h.kubectlOk(["delete", "pvc", "held", "--wait=false"]);
      assert.match(await h.kubectlOk(["get", "pvc", "held"]), /held\s+Terminating\s+pvc-/);

      // The etcd pod goes first: its claim and volume stay.
      await h.kubectlOk(["delete", "pod", "etcd", "--timeout=60s"]);
      assert.equal(await jsonpath(["pvc", "etcd-data"], "{.status.phase}"), "Bound");
      assert.ok(existsSync(volumeDir(etcdPv)), "the volume outlives the pod");
      // Then the claim: the directory goes, then the PV.
      await h.kubectlOk(["delete", "pvc", "etcd-data", "--timeout=60s"]);
      await waitFor(
        "the etcd PV's DELETED event",
        () => deleted("PersistentVolume", etcdPv),
        30_000,
      );
      assert.equal(deleted("PersistentVolume", etcdPv)!.dirExists, false, "directory gone first");

      // The claim protection has handled a later deletion meanwhile: the held claim is still
      // Terminating, with its finalizer, its volume Bound and its directory in place.
      const held = JSON.parse(
        await h.kubectlOk(["get", "pvc", "held", "-o", "json"]),
      ) as KubeObject;
      assert.ok(held.metadata.deletionTimestamp);
      assert.deepEqual(held.metadata.finalizers, ["kubernetes.io/pvc-protection"]);
      assert.equal(await jsonpath(["pv", heldPv], "{.status.phase}"), "Bound");
      assert.ok(existsSync(join(volumeDir(heldPv), "starts")), "the held claim's data stays");

      await h.kubectlOk(["delete", "pod", "holder", "--timeout=60s"]);
      await waitFor(
        "the held PV's DELETED event",
        () => deleted("PersistentVolume", heldPv),
        30_000,
      );
      const podGone = deleted("Pod", "holder")!;
      const claimGone = deleted("PersistentVolumeClaim", "held")!;
      assert.ok(podGone && claimGone, "both DELETED events seen");
      assert.ok(claimGone.rv > podGone.rv, "the claim went only after its pod");
      const pvGone = deleted("PersistentVolume", heldPv)!;
      assert.equal(pvGone.dirExists, false, "the directory was gone when the PV object went");
      assert.ok(pvGone.rv > claimGone.rv);
      const phases = seen.filter((e) => e.name === heldPv).map((e) => e.phase);
      assert.ok(phases.includes("Released"), `the PV was Released first: ${phases.join(",")}`);
    } finally {
      stopWatches.abort();
      await Promise.all(watching.map((w) => w.done));
    }
    assert.deepEqual(readdirSync(join(h.dataDir, "volumes")), [], "no volume left in DIR/volumes");
    assert.equal(await h.kubectlOk(["get", "pv,pvc,pods", "-o", "name"]), "");
  });
});
