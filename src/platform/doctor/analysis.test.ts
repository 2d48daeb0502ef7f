/** The doctor's analysis on plain objects: owners, next steps, the threshold. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { analyze, holdsOf, isStuck, removeCommand, telling } from "./analysis.js";
import { clusterView } from "./cluster-view.js";

const NOW = new Date("2026-12-03T12:00:00Z");
const AGO = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();

function cm(name: string, extra: Partial<KubeObject["metadata"]> = {}): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: "a", uid: `uid-${name}`, ...extra },
  };
}

describe("doctor analysis", () => {
  it("counts an object as stuck only once its deletion is older than the threshold", () => {
    assert.equal(isStuck(cm("x"), NOW, 0), false, "not being deleted");
    assert.equal(isStuck(cm("x", { deletionTimestamp: AGO(30) }), NOW, 60_000), false);
    assert.equal(isStuck(cm("x", { deletionTimestamp: AGO(61) }), NOW, 60_000), true);
    assert.equal(isStuck(cm("x", { deletionTimestamp: AGO(1) }), NOW, 1000), true);
  });

  it("an unknown finalizer: no Hearth controller owns it, and the patch that removes it by index", () => {
    const obj = cm("held", {
      deletionTimestamp: AGO(90),
      finalizers: ["a.io/x", "example.com/hold"],
    });
    const f = analyze(obj, "configmaps", clusterView([obj]), NOW);
    assert.equal(f.waitingSeconds, 90);
    assert.deepEqual(
      f.holds.map((h) => [h.finalizer, h.index, h.controller]),
      [
        ["a.io/x", 0, undefined],
        ["example.com/hold", 1, undefined],
      ],
    );
    assert.equal(
      f.nextStep,
      "no Hearth controller owns a.io/x: remove it by hand only if you know its owner is gone: " +
        `kubectl patch configmaps held -n a --type=json -p '[{"op":"remove","path":"/metadata/finalizers/0"}]'`,
    );
  });

  it("foregroundDeletion: wait for the garbage collector, naming the dependents", () => {
    const owner = cm("owner", { deletionTimestamp: AGO(120), finalizers: ["foregroundDeletion"] });
    const child = cm("child", {
      ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: "uid-owner" }],
    });
    const f = analyze(owner, "configmaps", clusterView([owner, child]), NOW);
    assert.equal(f.holds[0]?.controller, "the garbage collector");
    assert.equal(
      f.nextStep,
      "wait: the garbage collector deletes its 1 dependent first (ConfigMap/child)",
    );
    const alone = analyze(owner, "configmaps", clusterView([owner]), NOW);
    assert.match(
      alone.nextStep,
      /^wait: the garbage collector removes foregroundDeletion now that no dependent is left/,
    );
  });

  it("a Hearth-owned finalizer is waited on before an unknown one is removed by hand", () => {
    const obj = cm("both", {
      deletionTimestamp: AGO(90),
      finalizers: ["example.com/hold", "orphan"],
    });
    const f = analyze(obj, "configmaps", clusterView([obj]), NOW);
    assert.match(
      f.nextStep,
      /^wait: the garbage collector removes the owner reference from its 0 dependents first/,
    );
  });

  it("PVC protection names the pods that still mount the claim", () => {
    const claim: KubeObject = {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: {
        name: "data",
        namespace: "a",
        uid: "c",
        deletionTimestamp: AGO(100),
        finalizers: ["kubernetes.io/pvc-protection"],
      },
    };
    const pod: KubeObject = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "db-0", namespace: "a", uid: "p" },
      spec: { volumes: [{ name: "d", persistentVolumeClaim: { claimName: "data" } }] },
    };
    const f = analyze(claim, "persistentvolumeclaims", clusterView([claim, pod]), NOW);
    assert.equal(f.holds[0]?.controller, "the PVC protection controller");
    assert.equal(
      f.nextStep,
      "wait: the PVC protection controller releases the claim once no pod uses it: delete or wait for pod db-0",
    );
  });

  it("Kamaji's finalizers are known but not run: remove by hand once their cleanup is moot", () => {
    const tcp: KubeObject = {
      apiVersion: "kamaji.clastix.io/v1alpha1",
      kind: "TenantControlPlane",
      metadata: {
        name: "k",
        namespace: "t",
        uid: "t1",
        deletionTimestamp: AGO(7200),
        finalizers: ["finalizer.kamaji.clastix.io"],
      },
    };
    const f = analyze(tcp, "tenantcontrolplanes.kamaji.clastix.io", clusterView([tcp]), NOW);
    assert.deepEqual(f.holds[0], {
      finalizer: "finalizer.kamaji.clastix.io",
      field: "metadata",
      index: 0,
      controller: "the TenantControlPlane controller",
      implemented: false,
    });
    assert.match(
      f.nextStep,
      /^the TenantControlPlane controller is not part of Hearth yet, so nothing removes finalizer\.kamaji\.clastix\.io: remove it by hand only once/,
    );
    assert.match(
      f.nextStep,
      /kubectl patch tenantcontrolplanes\.kamaji\.clastix\.io k -n t --type=json/,
    );
    assert.match(
      f.nextStep,
      /remove it by hand only once its DataStore's etcd is gone or you accept leaving its prefix, role and user there: /,
    );
    const secret: KubeObject = {
      apiVersion: "v1",
      kind: "Secret",
      metadata: {
        name: "k-datastore-config",
        namespace: "t",
        deletionTimestamp: AGO(7200),
        finalizers: ["finalizer.kamaji.clastix.io/datastore-secret"],
      },
    };
    const s = analyze(secret, "secrets", clusterView([secret]), NOW);
    assert.match(
      s.nextStep,
      /only once its TenantControlPlane is gone or no longer holds finalizer\.kamaji\.clastix\.io: kubectl patch secrets k-datastore-config -n t /,
    );
  });

  it("the telling condition and the newest Warning Event", () => {
    const ds: KubeObject = {
      apiVersion: "kamaji.clastix.io/v1alpha1",
      kind: "DataStore",
      metadata: {
        name: "t",
        uid: "d1",
        deletionTimestamp: AGO(10),
        finalizers: ["kamaji.clastix.io/TenantControlPlane"],
      },
      status: {
        conditions: [
          { type: "Ready", status: "True", reason: "Reachable", lastTransitionTime: AGO(900) },
          {
            type: "kamaji.clastix.io/DataStoreAllowedDeletion",
            status: "False",
            reason: "DataStoreStillUsed",
            message: "usedBy=t/k",
            lastTransitionTime: AGO(10),
          },
        ],
      },
    };
    assert.equal(
      telling(ds),
      "kamaji.clastix.io/DataStoreAllowedDeletion=False DataStoreStillUsed: usedBy=t/k",
    );
    const event = (name: string, at: string, message: string): KubeObject => ({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name, namespace: "default" },
      type: "Warning",
      reason: "CleanupFailed",
      message,
      lastTimestamp: at,
      involvedObject: { kind: "DataStore", name: "t", uid: "d1" },
    });
    const view = clusterView([ds, event("e1", AGO(60), "old"), event("e2", AGO(5), "new")]);
    assert.equal(
      analyze(ds, "datastores.kamaji.clastix.io", view, NOW).warning,
      "CleanupFailed: new",
    );
    // A True failure condition is telling; a True ordinary one is not.
    const ns: KubeObject = {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "a" },
      status: {
        conditions: [
          {
            type: "NamespaceDeletionContentFailure",
            status: "True",
            reason: "ContentDeletionFailed",
            message: "boom",
          },
        ],
      },
    };
    assert.equal(telling(ns), "NamespaceDeletionContentFailure=True ContentDeletionFailed: boom");
  });

  it("a namespace's spec finalizer is freed through its finalize subresource", () => {
    const ns: KubeObject = {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "a", deletionTimestamp: AGO(5) },
      spec: { finalizers: ["kubernetes", "example.com/ns"] },
    };
    const holds = holdsOf(ns);
    assert.deepEqual(
      holds.map((h) => [h.finalizer, h.field, h.index]),
      [
        ["kubernetes", "spec", 0],
        ["example.com/ns", "spec", 1],
      ],
    );
    assert.equal(
      removeCommand(ns, "namespaces", holds[1]!),
      "kubectl get namespace a -o json | jq 'del(.spec.finalizers[1])' | kubectl replace --raw /api/v1/namespaces/a/finalize -f -",
    );
  });

  it("a pod without finalizers waits for its node agent", () => {
    const pod: KubeObject = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "a", deletionTimestamp: AGO(300) },
      spec: { nodeName: "n1" },
    };
    const f = analyze(pod, "pods", clusterView([pod]), NOW);
    assert.match(
      f.nextStep,
      /^wait: the node agent of node n1 stops the pod's containers; if that node is gone for good: kubectl delete pod p -n a --grace-period=0 --force$/,
    );
  });
});
