/**
 * AppReconciler install: the inventory is written before anything is applied,
 * children carry the application labels and the field manager, a new render
 * prunes what it no longer holds (keeping a pruned child that is still there
 * in the inventory until it is gone), and a failing apply stalls, then recovers.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { condition, entry, setUp, verbs } from "../../../test/support/fixtures/engine.js";
import { findCondition } from "../../runtime/index.js";
import { FIELD_MANAGER, STALL_AFTER, UNINSTALL_FINALIZER } from "./app-reconciler.js";
import {
  type App,
  LABEL_APP_GROUP,
  LABEL_APP_KIND,
  LABEL_APP_NAME,
  LABEL_APP_UID,
} from "./module.js";

describe("AppReconciler: install", () => {
  it("adds the finalizer and writes the inventory before applying anything", async () => {
    const t = setUp();
    await t.reconcile();
    const calls = t.store.calls.filter((c) => c.verb !== "create");
    assert.equal(calls[0]?.verb, "patch");
    assert.deepEqual(t.app()?.metadata.finalizers, [UNINSTALL_FINALIZER]);
    const firstApply = calls.findIndex((c) => c.verb === "apply");
    const writeAhead = calls.findIndex(
      (c) =>
        c.verb === "patchStatus" &&
        (c.body as { status: App["status"] }).status?.inventory?.length === 2,
    );
    assert.ok(writeAhead >= 0, "the inventory was never written");
    assert.ok(firstApply >= 0, "nothing was applied");
    assert.ok(writeAhead < firstApply, `inventory written after apply: ${JSON.stringify(calls)}`);
    assert.deepEqual((calls[writeAhead]!.body as { status: App["status"] }).status?.inventory, [
      entry("one"),
      entry("two"),
    ]);
  });

  it("applies the children under one field manager with the application labels", async () => {
    const t = setUp();
    await t.reconcile();
    const applies = verbs(t.store.calls, "apply");
    assert.deepEqual(
      applies.map((c) => c.target),
      ["ConfigMap ns1/w-one", "ConfigMap ns1/w-two"],
    );
    for (const c of applies) assert.deepEqual(c.opts, { fieldManager: FIELD_MANAGER, force: true });
    for (const part of ["one", "two"]) {
      const child = t.child(part);
      assert.ok(child, `w-${part} was not created`);
      assert.deepEqual(child.metadata.labels, {
        "example.com/part": part,
        [LABEL_APP_KIND]: "Widget",
        [LABEL_APP_GROUP]: "apps.cozystack.io",
        [LABEL_APP_NAME]: "w",
        [LABEL_APP_UID]: "uid-w",
      });
      assert.deepEqual(child.data, { part });
    }
  });

  it("reports Released, WorkloadsReady and Ready, the version and the inventory", async () => {
    const t = setUp();
    const result = await t.reconcile();
    assert.deepEqual(result, {}, "a settled app is looked at again on a timer, not by events");
    const app = t.app();
    for (const type of ["Released", "WorkloadsReady", "Ready"]) {
      const c = condition(app, type);
      assert.equal(c.status, "True", type);
      assert.equal(c.observedGeneration, 1, type);
    }
    assert.equal(condition(app, "Released").message, "2 objects applied");
    assert.equal(condition(app, "Ready").reason, "Ready");
    assert.equal(app?.status?.version, "1.2.3");
    assert.equal(app?.status?.observedGeneration, 1);
    assert.deepEqual(app?.status?.inventory, [entry("one"), entry("two")]);
  });

  it("writes nothing but the children when nothing changed", async () => {
    const t = setUp();
    await t.reconcile();
    t.store.calls.length = 0;
    await t.reconcile();
    assert.deepEqual(
      t.store.calls.map((c) => c.verb),
      ["apply", "apply"],
    );
  });

  it("reports what the module's status says about its workloads", async () => {
    const t = setUp({
      status: async () => ({
        ready: false,
        reason: "PodsPending",
        message: "2 pods are pending: no node has room",
        fields: { endpoint: "w.ns1.svc" },
      }),
    });
    await t.reconcile();
    const app = t.app();
    assert.equal(condition(app, "Released").status, "True");
    assert.deepEqual(
      [condition(app, "WorkloadsReady"), condition(app, "Ready")].map((c) => [
        c.status,
        c.reason,
        c.message,
      ]),
      [
        ["False", "PodsPending", "2 pods are pending: no node has room"],
        ["False", "PodsPending", "2 pods are pending: no node has room"],
      ],
    );
    assert.equal(app?.status?.endpoint, "w.ns1.svc");
  });

  it("prunes a child a new render no longer holds and shrinks the inventory", async () => {
    const t = setUp();
    await t.reconcile();
    t.parts.names = ["one"];
    t.store.calls.length = 0;
    await t.reconcile();
    assert.deepEqual(
      verbs(t.store.calls, "delete").map((c) => c.target),
      ["ConfigMap ns1/w-two"],
    );
    assert.equal(t.child("two"), undefined);
    assert.ok(t.child("one"));
    assert.deepEqual(t.app()?.status?.inventory, [entry("one")]);
    assert.equal(condition(t.app(), "Released").message, "1 objects applied");
  });

  it("keeps a pruned child a finalizer holds in the inventory until it is gone", async () => {
    const t = setUp({ childFinalizer: "example.com/hold" });
    await t.reconcile();
    t.parts.names = ["one"];
    await t.reconcile();
    assert.ok(t.child("two")?.metadata.deletionTimestamp, "w-two is not being deleted");
    assert.deepEqual(t.app()?.status?.inventory, [entry("one"), entry("two")]);
    assert.match(
      condition(t.app(), "Released").message,
      /waiting for 1 pruned objects to be deleted: ConfigMap ns1\/w-two/,
    );

    t.store.calls.length = 0;
    await t.reconcile();
    assert.deepEqual(verbs(t.store.calls, "delete"), [], "a child being deleted was deleted again");
    assert.deepEqual(t.app()?.status?.inventory, [entry("one"), entry("two")]);

    t.store.release("v1", "ConfigMap", "w-two", "ns1");
    await t.reconcile();
    assert.deepEqual(t.app()?.status?.inventory, [entry("one")]);
    assert.equal(condition(t.app(), "Released").message, "1 objects applied");
  });

  it("does not finish an uninstall while a pruned child a finalizer holds is there", async () => {
    const t = setUp({ childFinalizer: "example.com/hold" });
    await t.reconcile();
    t.parts.names = ["one"];
    await t.reconcile();
    await t.deleteApp();

    await t.reconcile();
    assert.match(
      condition(t.app(), "Ready").message,
      /waiting for 2 objects to be deleted: ConfigMap ns1\/w-one, ConfigMap ns1\/w-two/,
    );
    t.store.release("v1", "ConfigMap", "w-one", "ns1");
    await t.reconcile();
    assert.ok(t.app(), "the app went while a pruned child was left");
    assert.match(
      condition(t.app(), "Ready").message,
      /waiting for 1 objects to be deleted: ConfigMap ns1\/w-two/,
    );

    t.store.release("v1", "ConfigMap", "w-two", "ns1");
    await t.reconcile();
    assert.equal(t.app(), undefined, "the finalizer was not removed");
  });

  it("keeps every planned child in the inventory when an apply fails, and stalls, then recovers", async () => {
    const t = setUp();
    t.store.failApply = (o) =>
      o.metadata.name === "w-two" ? new Error("admission webhook refused it") : undefined;
    for (let i = 1; i <= STALL_AFTER; i++) {
      await assert.rejects(t.reconcile(), /cannot apply ConfigMap ns1\/w-two: admission webhook/);
      const stalled = findCondition(t.app()?.status?.conditions, "Stalled");
      if (i < STALL_AFTER) assert.equal(stalled, undefined, `Stalled after ${i} failures`);
    }
    const app = t.app();
    assert.deepEqual(app?.status?.inventory, [entry("one"), entry("two")]);
    assert.equal(condition(app, "Ready").status, "False");
    assert.equal(condition(app, "Ready").reason, "ApplyFailed");
    const stalled = condition(app, "Stalled");
    assert.equal(stalled.status, "True");
    assert.match(stalled.message, /5 attempts in a row failed; last error: cannot apply/);
    assert.ok((await t.warnings()).some((w) => w.reason === "ApplyFailed"));

    t.store.failApply = () => undefined;
    await t.reconcile();
    assert.equal(findCondition(t.app()?.status?.conditions, "Stalled"), undefined);
    assert.equal(condition(t.app(), "Ready").status, "True");
  });
});
