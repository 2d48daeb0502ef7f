/** Why a namespace is still Terminating, from plain objects; and the report's threshold. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { clusterView } from "./cluster-view.js";
import { judge, somethingStuck } from "./diagnose.js";
import { formatReport } from "./format.js";
import { namespaceReport } from "./namespace-report.js";

const NOW = new Date("2026-12-03T12:00:00Z");
const AGO = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();

const terminating: KubeObject = {
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name: "t", uid: "ns", deletionTimestamp: AGO(600) },
  spec: { finalizers: ["kubernetes"] },
  status: {
    phase: "Terminating",
    conditions: [
      { type: "NamespaceDeletionDiscoveryFailure", status: "False", reason: "ResourcesDiscovered" },
      {
        type: "NamespaceContentRemaining",
        status: "True",
        reason: "SomeResourcesRemain",
        message: "Some resources are remaining: secrets has 1 resource instances",
      },
      {
        type: "NamespaceFinalizersRemaining",
        status: "True",
        reason: "SomeFinalizersRemain",
        message:
          "Some content in the namespace has finalizers remaining: finalizer.kamaji.clastix.io/datastore-secret in 1 resource instances",
      },
    ],
  },
};
const secret: KubeObject = {
  apiVersion: "v1",
  kind: "Secret",
  metadata: {
    name: "k-datastore-config",
    namespace: "t",
    uid: "s",
    deletionTimestamp: AGO(590),
    finalizers: ["finalizer.kamaji.clastix.io/datastore-secret"],
  },
};
const live: KubeObject = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "other", namespace: "u", uid: "o" },
};

const listed = (objs: KubeObject[]) =>
  objs.map((o) => ({
    object: o,
    resource: o.kind === "Namespace" ? "namespaces" : `${o.kind.toLowerCase()}s`,
  }));

describe("doctor namespace report", () => {
  it("keeps the conditions that say why, analyses the namespace and every object inside", () => {
    const view = clusterView([terminating, secret, live]);
    const r = namespaceReport("t", terminating, view, () => "secrets", NOW);
    assert.equal(r.phase, "Terminating");
    assert.equal(r.waitingSeconds, 600);
    assert.deepEqual(
      r.conditions.map((c) => c.type),
      ["NamespaceContentRemaining", "NamespaceFinalizersRemaining"],
    );
    assert.match(
      r.namespace?.nextStep ?? "",
      /^wait: the namespace controller deletes the 1 object still inside first; 1 of them is held by a finalizer no running Hearth controller removes; see hearth doctor --namespace t$/,
    );
    assert.deepEqual(
      r.objects.map((o) => `${o.kind}/${o.name}`),
      ["Secret/k-datastore-config"],
    );
    assert.equal(r.objects[0]?.holds[0]?.controller, "the TenantControlPlane controller");
  });

  it("a namespace the controller has not reported on, a live one and a gone one", () => {
    const silent = { ...terminating, status: { phase: "Terminating" } };
    assert.match(
      namespaceReport("t", silent, clusterView([silent]), () => "x", NOW).note ?? "",
      /has set no condition yet/,
    );
    const active: KubeObject = {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "u" },
      status: { phase: "Active" },
    };
    const r = namespaceReport("u", active, clusterView([active, live]), () => "configmaps", NOW);
    assert.equal(r.namespace, undefined);
    assert.deepEqual(r.objects, [], "nothing inside an Active namespace is being deleted");
    const inside = { ...live, metadata: { ...live.metadata, namespace: "t" } };
    const t = namespaceReport(
      "t",
      terminating,
      clusterView([terminating, inside]),
      () => "configmaps",
      NOW,
    );
    assert.match(
      t.objects[0]?.nextStep ?? "",
      /^wait: not marked for deletion yet; the namespace controller deletes it/,
    );
    assert.equal(
      namespaceReport("gone", undefined, clusterView([]), () => "x", NOW).phase,
      "NotFound",
    );
  });

  it("the report: only deletions older than the threshold, in the namespace asked for; exit status", () => {
    const all = listed([terminating, secret, live]);
    const wide = judge(all, [], { thresholdMs: 595_000, now: () => NOW });
    assert.deepEqual(
      wide.stuck.map((f) => f.name),
      ["t"],
      "the secret has waited 590 s only",
    );
    assert.equal(somethingStuck(wide), true);
    const none = judge(all, [], { thresholdMs: 3_600_000, now: () => NOW });
    assert.equal(somethingStuck(none), false);
    assert.match(
      formatReport(none),
      /^nothing stuck: no deletion has waited longer than 1h0m0s\n$/,
    );
    const scoped = judge(all, ["widgets.example.com: boom"], {
      thresholdMs: 1000,
      namespace: "u",
      now: () => NOW,
    });
    assert.deepEqual(scoped.stuck, []);
    assert.equal(scoped.namespace?.phase, "NotFound");
    assert.match(
      formatReport(scoped),
      /could not list \(objects of these may be missing above\):\n {2}widgets\.example\.com: boom/,
    );
    const text = formatReport(
      judge(all, [], { thresholdMs: 1000, namespace: "t", now: () => NOW }),
    );
    assert.match(
      text,
      /^Namespace t is Terminating \(for 10m0s\)\n {2}NamespaceContentRemaining=True SomeResourcesRemain: /,
    );
    assert.match(
      text,
      /held by +finalizer\.kamaji\.clastix\.io\/datastore-secret — the TenantControlPlane controller, which Hearth does not run yet/,
    );
    assert.match(text, /stuck: 2 objects have waited for deletion longer than 1s \(above\)\n$/);
  });
});
