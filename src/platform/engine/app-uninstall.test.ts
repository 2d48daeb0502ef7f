/**
 * AppReconciler uninstall keeps its order — preDelete, delete the children
 * and wait, postDelete, drop the finalizer — with a failing hook surfaced as a
 * condition and a Warning Event, never deleting children, and Stalled after
 * repeated failures.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { condition, scriptedHooks, setUp, verbs } from "../../../test/support/fixtures/engine.js";
import { findCondition } from "../../runtime/index.js";
import { STALL_AFTER, UNINSTALL_FINALIZER } from "./app-reconciler.js";
import type { AppHooks } from "./module.js";

describe("AppReconciler: uninstall", () => {
  it("keeps the children while preDelete is waiting", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks });
    await t.reconcile();
    await t.deleteApp();
    script.pre = async () => ({ done: false, waitingFor: "the nightly backup to finish" });
    const result = await t.reconcile();
    assert.ok((result.requeueAfter ?? 0) > 0, "a waiting hook is not asked again");
    assert.deepEqual(verbs(t.store.calls, "delete"), []);
    assert.ok(t.child("one") && t.child("two"));
    const ready = condition(t.app(), "Ready");
    assert.deepEqual(
      [ready.status, ready.reason, ready.message],
      ["False", "PreDeleteWaiting", "waiting for the nightly backup to finish"],
    );
    assert.deepEqual(script.calls, ["preDelete"]);
    assert.deepEqual(t.app()?.metadata.finalizers, [UNINSTALL_FINALIZER]);
  });

  it("surfaces a failing preDelete, never deletes the children, and stalls after repeated failures", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks });
    await t.reconcile();
    await t.deleteApp();
    let attempt = 0;
    script.pre = async () => {
      throw new Error(`backup service unreachable (attempt ${++attempt})`);
    };
    for (let i = 1; i <= STALL_AFTER; i++) {
      await assert.rejects(t.reconcile(), /preDelete hook failed: backup service unreachable/);
      const ready = condition(t.app(), "Ready");
      assert.equal(ready.status, "False");
      assert.equal(ready.reason, "PreDeleteHookFailed");
      assert.match(ready.message, new RegExp(`attempt ${i}\\)`));
      if (i < STALL_AFTER)
        assert.equal(findCondition(t.app()?.status?.conditions, "Stalled"), undefined);
    }
    assert.deepEqual(verbs(t.store.calls, "delete"), []);
    assert.ok(t.child("one") && t.child("two"));
    assert.deepEqual(script.calls, Array(STALL_AFTER).fill("preDelete"));

    const stalled = condition(t.app(), "Stalled");
    assert.equal(stalled.status, "True");
    assert.equal(stalled.reason, "PreDeleteHookFailed");
    assert.match(
      stalled.message,
      new RegExp(
        `${STALL_AFTER} attempts in a row failed; last error: .*attempt ${STALL_AFTER}\\)`,
      ),
    );
    const warnings = await t.warnings();
    assert.equal(warnings.length, STALL_AFTER);
    for (const w of warnings) {
      assert.equal(w.reason, "PreDeleteHookFailed");
      assert.match(w.message, /preDelete hook failed: backup service unreachable/);
    }
  });

  it("fails a hook that runs past its deadline, aborting its signal", async () => {
    let aborted: boolean | undefined;
    const hooks: AppHooks = {
      permissions: [],
      deadlineMs: 20,
      preDelete: async ({ signal }) => {
        await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
        aborted = signal.aborted;
        return { done: true };
      },
    };
    const t = setUp({ hooks });
    await t.reconcile();
    await t.deleteApp();
    await assert.rejects(t.reconcile(), /preDelete hook did not finish within 20 ms/);
    assert.equal(aborted, true);
    assert.equal(condition(t.app(), "Ready").reason, "PreDeleteHookFailed");
    assert.deepEqual(verbs(t.store.calls, "delete"), []);
  });

  it("deletes the children once preDelete is done, drops the finalizer only after they are gone, postDelete in between", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks, childFinalizer: "example.com/hold" });
    await t.reconcile();
    await t.deleteApp();
    const seenByPostDelete: string[][] = [];
    script.post = async ({ client }) => {
      const left = await client.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "ns1" });
      seenByPostDelete.push(left.items.map((o) => o.metadata.name!));
      return { done: true, residue: ["a snapshot in the external bucket"] };
    };

    await t.reconcile();
    assert.deepEqual(
      verbs(t.store.calls, "delete").map((c) => c.target),
      ["ConfigMap ns1/w-one", "ConfigMap ns1/w-two"],
    );
    assert.ok(t.child("one")?.metadata.deletionTimestamp, "w-one is not being deleted");
    const ready = condition(t.app(), "Ready");
    assert.equal(ready.reason, "DeletingChildren");
    assert.match(ready.message, /waiting for 2 objects to be deleted: ConfigMap ns1\/w-one/);
    assert.deepEqual(t.app()?.metadata.finalizers, [UNINSTALL_FINALIZER]);
    assert.deepEqual(script.calls, ["preDelete"]);

    t.store.calls.length = 0;
    t.store.release("v1", "ConfigMap", "w-one", "ns1");
    await t.reconcile();
    assert.deepEqual(verbs(t.store.calls, "delete"), [], "a child being deleted was deleted again");
    assert.match(
      condition(t.app(), "Ready").message,
      /waiting for 1 objects to be deleted: ConfigMap ns1\/w-two/,
    );
    assert.ok(t.app(), "the app went while a child was left");
    assert.deepEqual(script.calls, ["preDelete", "preDelete"]);

    t.store.release("v1", "ConfigMap", "w-two", "ns1");
    await t.reconcile();
    assert.equal(t.app(), undefined, "the finalizer was not removed");
    assert.deepEqual(script.calls, ["preDelete", "preDelete", "preDelete", "postDelete"]);
    assert.deepEqual(seenByPostDelete, [[]]);
    const residue = (await t.warnings()).filter((w) => w.reason === "CleanupResidue");
    assert.deepEqual(residue, [
      { reason: "CleanupResidue", message: "left behind: a snapshot in the external bucket" },
    ]);
    assert.deepEqual(await t.reconcile(), {});
  });

  it("keeps the finalizer while postDelete is waiting", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks });
    await t.reconcile();
    await t.deleteApp();
    const childrenAtPost: unknown[] = [];
    script.post = async () => {
      childrenAtPost.push(t.child("one"), t.child("two"));
      return { done: false, waitingFor: "the DNS record to expire" };
    };
    // Children without finalizers go at once, so postDelete follows in the same pass.
    await t.reconcile();
    assert.deepEqual(script.calls, ["preDelete", "postDelete"]);
    assert.deepEqual(
      childrenAtPost,
      [undefined, undefined],
      "postDelete ran before the children were gone",
    );
    const ready = condition(t.app(), "Ready");
    assert.deepEqual(
      [ready.reason, ready.message],
      ["PostDeleteWaiting", "waiting for the DNS record to expire"],
    );
    assert.deepEqual(t.app()?.metadata.finalizers, [UNINSTALL_FINALIZER]);

    script.post = async () => ({ done: true });
    await t.reconcile();
    assert.equal(t.app(), undefined);
  });

  it("clears Stalled once the failing hook succeeds", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks, childFinalizer: "example.com/hold" });
    await t.reconcile();
    await t.deleteApp();
    script.pre = async () => {
      throw new Error("backup service unreachable");
    };
    for (let i = 0; i < STALL_AFTER; i++) await assert.rejects(t.reconcile());
    assert.equal(condition(t.app(), "Stalled").status, "True");
    script.pre = async () => ({ done: true });
    await t.reconcile();
    assert.equal(condition(t.app(), "Ready").reason, "DeletingChildren");
    assert.equal(findCondition(t.app()?.status?.conditions, "Stalled"), undefined);
  });
});
