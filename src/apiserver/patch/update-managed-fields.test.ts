/**
 * updateManagedFields: create, update and patch bookkeeping — the writer's
 * Update entry, ownership moving between updaters, removals, untouched times,
 * untracked objects, resets, subresources and the cap on updaters.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { configMapSchema, namespaceSchema } from "../../../test/support/fixtures/patch.js";
import type { KubeObject } from "../../api/index.js";
import { type UpdateManagedFieldsArgs, updateManagedFields } from "./update-managed-fields.js";

const T1 = "2024-05-01T10:00:00Z";
const T2 = "2024-05-01T10:05:00Z";
const T3 = "2024-05-01T10:10:00Z";

const cm = (data: Record<string, string>, labels?: Record<string, string>): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "cm", namespace: "default", uid: "u1", ...(labels ? { labels } : {}) },
  data,
});

/** `updated` as a write would build it: the stored object's managedFields carried along. */
function write(
  old: KubeObject | undefined,
  updated: KubeObject,
  manager: string,
  now: string,
  extra: Partial<UpdateManagedFieldsArgs> = {},
): KubeObject {
  const carried = old?.metadata.managedFields;
  return updateManagedFields({
    old,
    updated: carried
      ? { ...updated, metadata: { ...updated.metadata, managedFields: carried } }
      : updated,
    manager,
    operation: "Update",
    schema: configMapSchema,
    apiVersion: "v1",
    now,
    ...extra,
  });
}

const update = (manager: string, fieldsV1: unknown, time: string) => ({
  manager,
  operation: "Update",
  apiVersion: "v1",
  time,
  fieldsType: "FieldsV1",
  fieldsV1,
});

describe("updateManagedFields", () => {
  it("on create gives the writer every field, new maps included as members", () => {
    const out = write(undefined, cm({ a: "1" }, { app: "web" }), "kubectl-create", T1);
    assert.deepEqual(out.metadata.managedFields, [
      update(
        "kubectl-create",
        {
          "f:data": { ".": {}, "f:a": {} },
          "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
        },
        T1,
      ),
    ]);
    assert.deepEqual(out.data, { a: "1" });
  });

  it("moves the fields a later writer changes or adds to that writer", () => {
    const created = write(undefined, cm({ a: "1" }, { app: "web" }), "kubectl-create", T1);
    const edited = write(created, cm({ a: "2", b: "1" }, { app: "web" }), "kubectl-edit", T2);
    assert.deepEqual(edited.metadata.managedFields, [
      update(
        "kubectl-create",
        { "f:data": {}, "f:metadata": { "f:labels": { ".": {}, "f:app": {} } } },
        T1,
      ),
      update("kubectl-edit", { "f:data": { "f:a": {}, "f:b": {} } }, T2),
    ]);
  });

  it("takes removed fields away from their owners and drops emptied entries", () => {
    const created = write(undefined, cm({ a: "1" }, { app: "web" }), "kubectl-create", T1);
    const edited = write(created, cm({ a: "2" }, { app: "web" }), "kubectl-edit", T2);
    const out = write(edited, cm({}), "kubectl-label", T3);
    // kubectl-edit owned only data.a; the writer removed things and so owns nothing new.
    assert.deepEqual(out.metadata.managedFields, [update("kubectl-create", { "f:data": {} }, T1)]);
    assert.deepEqual(out.data, {});
  });

  it("leaves entries, times included, alone when the write changes nothing", () => {
    const created = write(undefined, cm({ a: "1" }), "kubectl-create", T1);
    const same = write(created, cm({ a: "1" }), "kubectl-create", T2);
    assert.deepEqual(same.metadata.managedFields, created.metadata.managedFields);
    const other = write(created, cm({ a: "1" }), "someone-else", T3);
    assert.deepEqual(other.metadata.managedFields, created.metadata.managedFields);
  });

  it("does not start tracking an existing object that has no managedFields", () => {
    const out = write(cm({ a: "1" }), cm({ a: "2" }), "kubectl-edit", T2);
    assert.equal(out.metadata.managedFields, undefined);
  });

  it("resets managedFields when the request sends an empty list or one empty entry", () => {
    const created = write(undefined, cm({ a: "1" }), "kubectl-create", T1);
    for (const reset of [[], [{}]]) {
      const out = updateManagedFields({
        old: created,
        updated: {
          ...cm({ a: "2" }),
          metadata: { ...cm({}).metadata, managedFields: reset as never },
        },
        manager: "kubectl-edit",
        operation: "Update",
        schema: configMapSchema,
        apiVersion: "v1",
        now: T2,
      });
      assert.equal(out.metadata.managedFields, undefined);
    }
  });

  it("records the subresource and uses the stored managedFields for it", () => {
    const created = updateManagedFields({
      old: undefined,
      updated: { apiVersion: "v1", kind: "Namespace", metadata: { name: "n" } },
      manager: "kubectl-create",
      operation: "Update",
      schema: namespaceSchema,
      apiVersion: "v1",
      now: T1,
    });
    assert.equal(created.metadata.managedFields, undefined, "nothing but server-owned fields");
    const labelled = updateManagedFields({
      old: undefined,
      updated: { apiVersion: "v1", kind: "Namespace", metadata: { name: "n", labels: { a: "b" } } },
      manager: "",
      operation: "Update",
      schema: namespaceSchema,
      apiVersion: "v1",
      now: T1,
    });
    const status = updateManagedFields({
      old: labelled,
      updated: {
        ...labelled,
        metadata: { ...labelled.metadata, managedFields: [] },
        status: { phase: "Active" },
      },
      manager: "namespace-controller",
      operation: "Update",
      schema: namespaceSchema,
      apiVersion: "v1",
      now: T2,
      subresource: "status",
    });
    assert.deepEqual(status.metadata.managedFields, [
      update("unknown", { "f:metadata": { "f:labels": { ".": {}, "f:a": {} } } }, T1),
      {
        ...update("namespace-controller", { "f:status": { ".": {}, "f:phase": {} } }, T2),
        subresource: "status",
      },
    ]);
  });

  it("folds the oldest of more than ten updaters into ancient-changes", () => {
    let obj = write(undefined, cm({ k0: "0" }), "m0", "2024-05-01T10:00:00Z");
    for (let i = 1; i <= 11; i++) {
      const data = { ...(obj.data as Record<string, string>), [`k${i}`]: String(i) };
      obj = write(obj, cm(data), `m${i}`, `2024-05-01T10:${String(i).padStart(2, "0")}:00Z`);
    }
    const managers = obj.metadata.managedFields?.map((e) => e.manager) ?? [];
    assert.equal(managers.length, 10);
    assert.ok(managers.includes("ancient-changes"));
    assert.ok(!managers.includes("m0") && !managers.includes("m1") && !managers.includes("m2"));
    const ancient = obj.metadata.managedFields?.find((e) => e.manager === "ancient-changes");
    assert.deepEqual(ancient?.fieldsV1, {
      "f:data": { ".": {}, "f:k0": {}, "f:k1": {}, "f:k2": {} },
    });
  });
});
