/**
 * serverSideApply on maps and ownership: creation, idempotent re-apply, pruning
 * of dropped fields, conflicts (409 in kube's words), force, co-ownership,
 * updates taking fields over, and before-first-apply.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { configMapSchema } from "../../../test/support/fixtures/patch.js";
import type { KubeObject } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import { serverSideApply } from "./server-side-apply.js";
import { updateManagedFields } from "./update-managed-fields.js";

const T1 = "2024-05-01T10:00:00Z";
const T2 = "2024-05-01T10:05:00Z";
const T3 = "2024-05-01T10:10:00Z";

const cm = (data: Record<string, string>, labels?: Record<string, string>): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "cm", namespace: "default", ...(labels ? { labels } : {}) },
  data,
});

function apply(
  live: KubeObject | undefined,
  applied: KubeObject,
  manager: string,
  opts: { force?: boolean; now?: string } = {},
): KubeObject {
  return serverSideApply({
    live,
    applied,
    manager,
    force: opts.force ?? false,
    schema: configMapSchema,
    apiVersion: "v1",
    now: opts.now ?? T1,
  });
}

const entry = (manager: string, fieldsV1: unknown, time = T1, operation = "Apply") => ({
  manager,
  operation,
  apiVersion: "v1",
  time,
  fieldsType: "FieldsV1",
  fieldsV1,
});

function conflict(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.code, 409);
    assert.equal(e.reason, "Conflict");
    return e;
  }
  assert.fail("expected a conflict");
}

describe("serverSideApply", () => {
  it("creates the object from nothing and records the applier", () => {
    const out = apply(undefined, cm({ a: "1" }, { app: "web" }), "kubectl");
    assert.deepEqual(out, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "cm",
        namespace: "default",
        labels: { app: "web" },
        managedFields: [
          entry("kubectl", {
            "f:data": { "f:a": {} },
            "f:metadata": { "f:labels": { "f:app": {} } },
          }),
        ],
      },
      data: { a: "1" },
    });
  });

  it("re-applying the same configuration changes nothing, not even the entry's time", () => {
    const first = apply(undefined, cm({ a: "1" }, { app: "web" }), "kubectl");
    const again = apply(first, cm({ a: "1" }, { app: "web" }), "kubectl", { now: T2 });
    assert.deepEqual(again, first);
  });

  it("removes the fields an applier stops applying", () => {
    const first = apply(undefined, cm({ a: "1", b: "2" }, { app: "web" }), "kubectl");
    const out = apply(first, cm({ a: "1" }), "kubectl", { now: T2 });
    assert.deepEqual(out.data, { a: "1" });
    assert.equal(out.metadata.labels, undefined, "an emptied map goes too");
    assert.deepEqual(out.metadata.managedFields, [
      entry("kubectl", { "f:data": { "f:a": {} } }, T2),
    ]);
  });

  it("fails with 409 when another applier owns a field it would change", () => {
    const live = apply(undefined, cm({ a: "1", b: "1" }), "alice");
    const err = conflict(() => apply(live, cm({ a: "2" }), "bob", { now: T2 }));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "alice": .data.a');
    assert.deepEqual(err.toStatus(), {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'Apply failed with 1 conflict: conflict with "alice": .data.a',
      reason: "Conflict",
      details: {
        causes: [
          { reason: "FieldManagerConflict", message: 'conflict with "alice"', field: ".data.a" },
        ],
      },
      code: 409,
    });
  });

  it("lists several conflicts per manager, updaters with their apiVersion", () => {
    const created = updateManagedFields({
      old: undefined,
      updated: cm({ a: "1", b: "1" }),
      manager: "kubectl-client-side-apply",
      operation: "Update",
      schema: configMapSchema,
      apiVersion: "v1",
      now: T1,
    });
    const err = conflict(() => apply(created, cm({ a: "2", b: "2" }), "kubectl", { now: T2 }));
    assert.equal(
      err.message,
      'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using v1:\n- .data.a\n- .data.b',
    );
    assert.deepEqual(
      err.details.causes?.map((c) => c.field),
      [".data.a", ".data.b"],
    );
    assert.equal(
      err.details.causes?.[0]?.message,
      'conflict with "kubectl-client-side-apply" using v1',
    );
  });

  it("with force takes the conflicting fields over", () => {
    const live = apply(undefined, cm({ a: "1", b: "1" }), "alice");
    const liveCopy = structuredClone(live);
    const applied = cm({ a: "2" });
    const out = apply(live, applied, "bob", { force: true, now: T2 });
    assert.deepEqual(live, liveCopy, "the live object is not modified");
    assert.deepEqual(applied, cm({ a: "2" }), "nor is the configuration");
    assert.deepEqual(out.data, { a: "2", b: "1" });
    assert.deepEqual(out.metadata.managedFields, [
      entry("alice", { "f:data": { "f:b": {} } }),
      entry("bob", { "f:data": { "f:a": {} } }, T2),
    ]);
  });

  it("keeps a co-owned field when one owner stops applying it", () => {
    const live = apply(undefined, cm({ a: "1", b: "1" }), "alice");
    const shared = apply(live, cm({ a: "1" }), "bob", { now: T2 });
    assert.deepEqual(shared.data, { a: "1", b: "1" });
    assert.deepEqual(
      shared.metadata.managedFields?.map((e) => [e.manager, e.time]),
      [
        ["bob", undefined],
        ["alice", T1],
      ],
      "nothing changed, so bob's new entry has no time (and sorts first, as in kube)",
    );
    const out = apply(shared, cm({ b: "1" }), "alice", { now: T3 });
    assert.deepEqual(out.data, { a: "1", b: "1" });
    assert.deepEqual(
      out.metadata.managedFields?.map((e) => [e.manager, e.fieldsV1]),
      [
        ["bob", { "f:data": { "f:a": {} } }],
        ["alice", { "f:data": { "f:b": {} } }],
      ],
    );
  });

  it("loses fields to an update, then conflicts with that updater", () => {
    const live = apply(undefined, cm({ a: "1", b: "1" }), "alice");
    const edited = updateManagedFields({
      old: { ...live, metadata: { ...live.metadata, uid: "u" } },
      updated: { ...live, metadata: { ...live.metadata, uid: "u" }, data: { a: "2", b: "1" } },
      manager: "kubectl-edit",
      operation: "Update",
      schema: configMapSchema,
      apiVersion: "v1",
      now: T2,
    });
    assert.deepEqual(edited.metadata.managedFields, [
      entry("alice", { "f:data": { "f:b": {} } }),
      entry("kubectl-edit", { "f:data": { "f:a": {} } }, T2, "Update"),
    ]);
    const err = conflict(() => apply(edited, cm({ a: "1", b: "1" }), "alice", { now: T3 }));
    assert.equal(
      err.message,
      'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.a',
    );
  });

  it("attributes fields of an object never applied to before-first-apply", () => {
    const live: KubeObject = {
      ...cm({ a: "1" }),
      metadata: { name: "cm", namespace: "default", uid: "u" },
    };
    const out = apply(live, cm({ b: "2" }), "kubectl", { now: T2 });
    assert.deepEqual(out.data, { a: "1", b: "2" });
    assert.deepEqual(out.metadata.managedFields, [
      entry("kubectl", { "f:data": { "f:b": {} } }, T2),
      entry("before-first-apply", { "f:data": { ".": {}, "f:a": {} } }, T2, "Update"),
    ]);
    const err = conflict(() => apply(out, cm({ a: "9" }), "kubectl", { now: T3 }));
    assert.match(err.message, /conflict with "before-first-apply" using v1: \.data\.a$/);
  });
});
