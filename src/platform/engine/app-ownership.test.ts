/**
 * AppReconciler acts only on its own children: a forged inventory entry
 * (another namespace, an unlabelled object, an earlier app's child, a
 * cluster-scoped object) is never pruned or deleted, only reported and dropped.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { definition, entry, REQUEST, setUp, verbs } from "../../../test/support/fixtures/engine.js";
import { AppReconciler } from "./app-reconciler.js";
import {
  type App,
  type InventoryEntry,
  LABEL_APP_GROUP,
  LABEL_APP_KIND,
  LABEL_APP_NAME,
  LABEL_APP_UID,
} from "./module.js";

describe("AppReconciler: acts only on its own children, whatever the status says", () => {
  /** Objects someone else made, and a forged inventory naming them beside the real children. */
  function forge(t: ReturnType<typeof setUp>) {
    const labels = { [LABEL_APP_KIND]: "Widget", [LABEL_APP_GROUP]: "apps.cozystack.io" };
    t.store.put({ apiVersion: "v1", kind: "Secret", metadata: { name: "s", namespace: "other" } });
    t.store.put({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "mine", namespace: "ns1" },
    });
    t.store.put({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "earlier",
        namespace: "ns1",
        labels: { ...labels, [LABEL_APP_NAME]: "w", [LABEL_APP_UID]: "uid-an-earlier-w" },
      },
    });
    t.store.put({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "crb", labels: { ...labels, [LABEL_APP_NAME]: "w" } },
    });
    const forged: InventoryEntry[] = [
      { apiVersion: "v1", kind: "Secret", name: "s", namespace: "other" },
      { apiVersion: "v1", kind: "ConfigMap", name: "mine", namespace: "ns1" },
      { apiVersion: "v1", kind: "ConfigMap", name: "earlier", namespace: "ns1" },
      { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRoleBinding", name: "crb" },
    ];
    const app = t.app()!;
    app.status = { ...app.status, inventory: [...(app.status?.inventory ?? []), ...forged] };
    return forged;
  }
  const untouched = (t: ReturnType<typeof setUp>) => {
    assert.ok(t.store.find("v1", "Secret", "s", "other"), "the Secret in another namespace went");
    assert.ok(t.store.find("v1", "ConfigMap", "mine", "ns1"), "an unlabelled ConfigMap went");
    assert.ok(t.store.find("v1", "ConfigMap", "earlier", "ns1"), "an earlier app's child went");
    assert.ok(
      t.store.find("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "crb"),
      "a cluster-scoped object went",
    );
  };
  const ignoredWarnings = async (t: ReturnType<typeof setUp>) =>
    (await t.warnings())
      .filter((w) => w.reason === "InventoryEntryIgnored")
      .map((w) => w.message)
      .sort();

  it("prunes none of a forged inventory's entries: a Warning names each, and it is dropped", async () => {
    const t = setUp();
    await t.reconcile();
    forge(t);
    await t.reconcile();
    untouched(t);
    assert.deepEqual(t.app()?.status?.inventory, [entry("one"), entry("two")]);
    const messages = await ignoredWarnings(t);
    assert.equal(messages.length, 4, messages.join("\n"));
    assert.match(
      messages[0]!,
      /^ignored inventory entry ClusterRoleBinding crb: it is a cluster-scoped object the app does not render;/,
    );
    assert.match(
      messages[1]!,
      /ConfigMap ns1\/earlier: it belongs to another Widget of that name \(uid uid-an-earlier-w\)/,
    );
    assert.match(
      messages[2]!,
      /ConfigMap ns1\/mine: it does not carry the labels the engine sets on the children of Widget w/,
    );
    assert.match(messages[3]!, /Secret other\/s: it is outside the app's namespaces \(ns1\)/);
    assert.deepEqual(
      verbs(t.store.calls, "delete").map((c) => c.target),
      [],
    );
  });

  it("uninstalls its own children and none of a forged inventory's entries, then finishes", async () => {
    const t = setUp();
    await t.reconcile();
    await t.deleteApp();
    forge(t);
    await t.reconcile();
    untouched(t);
    assert.equal(t.child("one"), undefined);
    assert.equal(t.child("two"), undefined);
    assert.equal(t.app(), undefined, "the app is still there");
    assert.equal((await ignoredWarnings(t)).length, 4);
  });

  it("still prunes and uninstalls children applied before the uid label existed", async () => {
    const t = setUp();
    await t.reconcile();
    for (const part of ["one", "two"]) delete t.child(part)!.metadata.labels![LABEL_APP_UID];
    t.parts.names = ["one"];
    await t.reconcile();
    assert.equal(t.child("two"), undefined, "the earlier child was not pruned");
    delete t.child("one")!.metadata.labels![LABEL_APP_UID];
    await t.deleteApp();
    await t.reconcile();
    assert.equal(t.child("one"), undefined, "the earlier child was not uninstalled");
    assert.equal(t.app(), undefined);
    assert.deepEqual(await ignoredWarnings(t), []);
  });

  it("refuses a render that puts a child outside the app's scope, and applies nothing", async () => {
    const t = setUp();
    t.parts.names = ["one"];
    const module = {
      definition,
      version: "1",
      render: () => [
        { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x", namespace: "other" } },
      ],
    };
    const reconciler = new AppReconciler(module, {
      client: t.store.client(),
      events: t.events,
      cluster: {},
      appKinds: () => ["Widget"],
    });
    await assert.rejects(
      reconciler.reconcile(REQUEST, { signal: new AbortController().signal, retries: 0 }),
      /cannot render: ConfigMap other\/x: it is outside the app's namespaces \(ns1\)/,
    );
    assert.deepEqual(verbs(t.store.calls, "apply"), []);
  });

  it("is deleted whatever malformed status it was left with", async () => {
    for (const status of [
      { inventory: "everything", conditions: "broken" },
      { inventory: [{ kind: 5, name: ["x"] }, null, "x"], conditions: [{ type: 1 }, null] },
    ]) {
      const t = setUp();
      await t.reconcile();
      await t.deleteApp();
      t.app()!.status = status as unknown as App["status"];
      await t.reconcile();
      assert.equal(t.app(), undefined, JSON.stringify(status));
    }
  });
});
