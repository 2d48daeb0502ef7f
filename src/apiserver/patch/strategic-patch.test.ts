/**
 * applyStrategicMergePatch: merge strategies from the schema (sets, lists merged
 * by key, replaced lists), null deletion, schema-less fields and error codes.
 * Directives have their own file.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { namespaceSchema, workloadSchema } from "../../../test/support/fixtures/patch.js";
import type { KubeObject } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import { PATCH_REJECTED_MESSAGE } from "./json-patch.js";
import { applyStrategicMergePatch } from "./strategic-patch.js";

const owner = (uid: string, name: string) => ({ apiVersion: "v1", kind: "Tenant", name, uid });

const namespace = (): KubeObject => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: {
    name: "team",
    labels: { app: "web", tier: "front" },
    finalizers: ["a.io/x", "b.io/y"],
    ownerReferences: [owner("u1", "t1"), owner("u2", "t2")],
  },
  spec: { finalizers: ["kubernetes"] },
});

const workload = (): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Workload",
  metadata: { name: "w" },
  spec: {
    replicas: 1,
    args: ["--a", "--b"],
    tags: [],
    containers: [
      { name: "app", image: "app:1", ports: [{ containerPort: 80 }] },
      { name: "log", image: "log:1" },
    ],
  },
});

function failsWith(fn: () => unknown, code: number, message: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.message, message);
    assert.equal(e.code, code);
    return true;
  });
}

describe("applyStrategicMergePatch", () => {
  it("merges finalizers as a set and ownerReferences by uid on a Namespace", () => {
    const current = namespace();
    const out = applyStrategicMergePatch(
      current,
      {
        metadata: {
          finalizers: ["b.io/y", "c.io/z"],
          ownerReferences: [owner("u2", "t2-renamed"), owner("u3", "t3")],
        },
      },
      namespaceSchema,
    );
    assert.deepEqual(out.metadata.finalizers, ["a.io/x", "b.io/y", "c.io/z"]);
    assert.deepEqual(out.metadata.ownerReferences, [
      owner("u1", "t1"),
      owner("u2", "t2-renamed"),
      owner("u3", "t3"),
    ]);
    assert.deepEqual(out.spec, { finalizers: ["kubernetes"] });
    assert.deepEqual(current, namespace(), "the input is not modified");
  });

  it("puts items new to a merge list before the server-only items, as kube does", () => {
    const out = applyStrategicMergePatch(
      namespace(),
      { metadata: { finalizers: ["c.io/z"], ownerReferences: [owner("u3", "t3")] } },
      namespaceSchema,
    );
    assert.deepEqual(out.metadata.finalizers, ["c.io/z", "a.io/x", "b.io/y"]);
    assert.deepEqual(
      out.metadata.ownerReferences?.map((o) => o.uid),
      ["u3", "u1", "u2"],
    );
  });

  it("does not duplicate a finalizer already present", () => {
    const out = applyStrategicMergePatch(
      namespace(),
      { metadata: { finalizers: ["a.io/x"] } },
      namespaceSchema,
    );
    assert.deepEqual(out.metadata.finalizers, ["a.io/x", "b.io/y"]);
  });

  it("merges list items by key recursively and replaces lists without a strategy", () => {
    const out = applyStrategicMergePatch(
      workload(),
      {
        spec: {
          args: ["--c"],
          containers: [{ name: "app", image: "app:2", ports: [{ containerPort: 443 }] }],
        },
      },
      workloadSchema,
    );
    assert.deepEqual(out.spec, {
      replicas: 1,
      args: ["--c"],
      tags: [],
      containers: [
        { name: "app", image: "app:2", ports: [{ containerPort: 443 }, { containerPort: 80 }] },
        { name: "log", image: "log:1" },
      ],
    });
  });

  it("deletes map keys set to null and drops nulls from added values", () => {
    const out = applyStrategicMergePatch(
      namespace(),
      {
        metadata: { labels: { tier: null, env: "prod" }, annotations: { a: "1", b: null } },
        status: { phase: "Active", reason: null },
      },
      namespaceSchema,
    );
    assert.deepEqual(out.metadata.labels, { app: "web", env: "prod" });
    assert.deepEqual(out.metadata.annotations, { a: "1" });
    assert.deepEqual(out.status, { phase: "Active" });
  });

  it("behaves like a JSON merge patch where there is no schema", () => {
    const out = applyStrategicMergePatch(
      namespace(),
      { metadata: { finalizers: ["c.io/z"], labels: { app: null } }, spec: { extra: { x: 1 } } },
      undefined,
    );
    assert.deepEqual(out.metadata.finalizers, ["c.io/z"]);
    assert.deepEqual(out.metadata.labels, { tier: "front" });
    assert.deepEqual(out.spec, { finalizers: ["kubernetes"], extra: { x: 1 } });
  });

  it("replaces a value whose type changes", () => {
    const out = applyStrategicMergePatch(
      workload(),
      { spec: { replicas: { min: 1 } } },
      workloadSchema,
    );
    assert.deepEqual((out.spec as Record<string, unknown>).replicas, { min: 1 });
  });

  it("treats a null body as an empty patch and rejects other non-objects with 400", () => {
    assert.deepEqual(applyStrategicMergePatch(namespace(), null, namespaceSchema), namespace());
    failsWith(
      () => applyStrategicMergePatch(namespace(), [], namespaceSchema),
      400,
      "json: cannot unmarshal array into Go value of type map[string]interface {}",
    );
  });

  it("rejects a merge-list item without its merge key", () => {
    failsWith(
      () =>
        applyStrategicMergePatch(
          workload(),
          { spec: { containers: [{ image: "x" }] } },
          workloadSchema,
        ),
      400,
      "map: map[image:x] does not contain declared merge key: name",
    );
  });

  it("rejects lists of lists with kube's 422", () => {
    failsWith(
      () => applyStrategicMergePatch(workload(), { spec: { tags: [["a"]] } }, workloadSchema),
      422,
      PATCH_REJECTED_MESSAGE,
    );
  });

  it("rejects items of mixed types in a merged list", () => {
    failsWith(
      () =>
        applyStrategicMergePatch(namespace(), { metadata: { finalizers: [1] } }, namespaceSchema),
      400,
      "list element types are not identical: [[a.io/x b.io/y] [1]]",
    );
  });
});
