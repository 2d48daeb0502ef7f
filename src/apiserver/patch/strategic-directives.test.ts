/**
 * Strategic merge patch directives: `$patch` on maps and list items,
 * `$setElementOrder`, `$retainKeys` and `$deleteFromPrimitiveList`, with the
 * expectations of apimachinery's own test cases.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { namespaceSchema, workloadSchema } from "../../../test/support/fixtures/patch.js";
import type { KubeObject } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import { applyStrategicMergePatch } from "./strategic-patch.js";

const workload = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Workload",
  metadata: { name: "w", labels: { app: "web" }, finalizers: ["a", "b", "c"] },
  spec,
});

const patchSpec = (current: KubeObject, spec: Record<string, unknown>) =>
  applyStrategicMergePatch(current, { spec }, workloadSchema).spec;

const names = (spec: unknown) =>
  ((spec as { containers: { name: string }[] }).containers ?? []).map((c) => c.name);

const containers = (...list: string[]) => list.map((name) => ({ name, image: `${name}:1` }));

function badRequest(fn: () => unknown, message: string): void {
  assert.throws(
    fn,
    (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === message,
  );
}

describe("$patch", () => {
  it("delete removes the list item with that merge key", () => {
    const current = workload({ containers: containers("app", "log", "proxy") });
    const spec = patchSpec(current, {
      containers: [
        { name: "log", $patch: "delete" },
        { name: "new", image: "new:1" },
      ],
    });
    assert.deepEqual(spec, {
      containers: [
        { name: "new", image: "new:1" },
        { name: "app", image: "app:1" },
        { name: "proxy", image: "proxy:1" },
      ],
    });
  });

  it("delete on an ownerReference removes it by uid", () => {
    const ns: KubeObject = {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: "n",
        ownerReferences: [
          { apiVersion: "v1", kind: "T", name: "a", uid: "u1" },
          { apiVersion: "v1", kind: "T", name: "b", uid: "u2" },
        ],
      },
    };
    const out = applyStrategicMergePatch(
      ns,
      { metadata: { ownerReferences: [{ $patch: "delete", uid: "u1" }] } },
      namespaceSchema,
    );
    assert.deepEqual(out.metadata.ownerReferences, [
      { apiVersion: "v1", kind: "T", name: "b", uid: "u2" },
    ]);
  });

  it("replace in a list replaces the whole list", () => {
    const spec = patchSpec(workload({ containers: containers("app", "log") }), {
      containers: [{ name: "only", image: "only:1" }, { $patch: "replace" }],
    });
    assert.deepEqual(spec, { containers: [{ name: "only", image: "only:1" }] });
  });

  it("replace on a map keeps only the patch's keys; delete empties it", () => {
    const current = workload({
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } },
    });
    const out = applyStrategicMergePatch(
      current,
      {
        metadata: { labels: { $patch: "replace", env: "prod" } },
        spec: { strategy: { $patch: "delete" } },
      },
      workloadSchema,
    );
    assert.deepEqual(out.metadata.labels, { env: "prod" });
    assert.deepEqual(out.spec, { strategy: {} });
  });

  it("rejects merge on a list item and unknown directives", () => {
    const current = workload({ containers: containers("app"), strategy: { type: "Recreate" } });
    badRequest(
      () => patchSpec(current, { containers: [{ name: "app", $patch: "merge" }] }),
      "merging lists cannot yet be specified in the patch",
    );
    badRequest(
      () => patchSpec(current, { strategy: { $patch: "frob", type: "x" } }),
      "unknown patch type: frob in map: map[$patch:frob type:x]",
    );
  });

  it("drops a map carrying a directive where there is nothing to merge it with", () => {
    const spec = patchSpec(workload({}), { strategy: { $patch: "replace", type: "Recreate" } });
    assert.deepEqual(spec, {});
  });
});

describe("$setElementOrder", () => {
  it("orders merged items as listed, new ones included", () => {
    const current = workload({
      containers: [
        { name: "c1", other: "a" },
        { name: "c2", image: "b", other: "b" },
      ],
    });
    const spec = patchSpec(current, {
      "$setElementOrder/containers": [
        { name: "c1" },
        { name: "c4" },
        { name: "c2" },
        { name: "c3" },
      ],
      containers: [
        { name: "c4", image: "d" },
        { name: "c3", image: "c" },
      ],
    });
    assert.deepEqual(spec, {
      containers: [
        { name: "c1", other: "a" },
        { name: "c4", image: "d" },
        { name: "c2", image: "b", other: "b" },
        { name: "c3", image: "c" },
      ],
    });
  });

  it("keeps server-only items after the ordered ones", () => {
    const current = workload({ containers: containers("c1", "c3", "c4", "c2", "c9") });
    const spec = patchSpec(current, {
      "$setElementOrder/containers": [
        { name: "c4" },
        { name: "c2" },
        { name: "c3" },
        { name: "c1" },
      ],
    });
    assert.deepEqual(names(spec), ["c4", "c2", "c3", "c1", "c9"]);
  });

  it("orders a primitive merge list", () => {
    const out = applyStrategicMergePatch(
      workload({}),
      { metadata: { "$setElementOrder/finalizers": ["c", "a", "b", "d"], finalizers: ["d"] } },
      workloadSchema,
    );
    assert.deepEqual(out.metadata.finalizers, ["c", "a", "b", "d"]);
  });

  it("rejects a patch list out of the directive's order", () => {
    const current = workload({ containers: containers("c1", "c2") });
    assert.throws(
      () =>
        patchSpec(current, {
          "$setElementOrder/containers": [{ name: "c1" }, { name: "c2" }],
          containers: [{ name: "c2" }, { name: "c1" }],
        }),
      (e: unknown) =>
        e instanceof ApiError && e.code === 400 && e.message.startsWith("The order in patch list:"),
    );
    badRequest(
      () => patchSpec(current, { "$setElementOrder/containers": "c1" }),
      "expected a []interface {}, but received a string",
    );
  });
});

describe("$retainKeys", () => {
  it("clears the map keys it does not list", () => {
    const current = workload({
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } },
    });
    const spec = patchSpec(current, { strategy: { $retainKeys: ["type"], type: "Recreate" } });
    assert.deepEqual(spec, { strategy: { type: "Recreate" } });
  });

  it("works inside merged list items (volume sources)", () => {
    const current = workload({
      volumes: [
        { name: "data", emptyDir: {} },
        { name: "cache", emptyDir: {} },
      ],
    });
    const spec = patchSpec(current, {
      volumes: [{ name: "data", $retainKeys: ["name", "hostPath"], hostPath: { path: "/srv" } }],
    });
    assert.deepEqual(spec, {
      volumes: [
        { name: "data", hostPath: { path: "/srv" } },
        { name: "cache", emptyDir: {} },
      ],
    });
  });

  it("rejects a patch setting a key the directive does not list", () => {
    const current = workload({ strategy: { type: "RollingUpdate" } });
    badRequest(
      () =>
        patchSpec(current, { strategy: { $retainKeys: ["type"], rollingUpdate: { maxSurge: 2 } } }),
      "invalid patch format of retainKeys",
    );
    badRequest(
      () => patchSpec(current, { strategy: { $retainKeys: "type" } }),
      "invalid patch format of retainKeys",
    );
  });
});

describe("$deleteFromPrimitiveList", () => {
  it("removes primitives from a merge list while other items are added", () => {
    const out = applyStrategicMergePatch(
      workload({}),
      { metadata: { "$deleteFromPrimitiveList/finalizers": ["a", "zz"], finalizers: ["d"] } },
      workloadSchema,
    );
    assert.deepEqual(out.metadata.finalizers, ["d", "b", "c"]);
  });

  it("works on a list without a merge strategy, and ignores an absent list", () => {
    const current = workload({ args: ["--a", "--b"] });
    const spec = patchSpec(current, {
      "$deleteFromPrimitiveList/args": ["--a"],
      "$deleteFromPrimitiveList/tags": ["x"],
    });
    assert.deepEqual(spec, { args: ["--b"] });
  });

  it("leaves no directive keys in values added from the patch", () => {
    const spec = patchSpec(workload({}), {
      strategy: { $retainKeys: ["type"], type: "Recreate" },
      containers: [
        { name: "a", "$setElementOrder/env": [{ name: "X" }], env: [{ name: "X", value: "1" }] },
      ],
    });
    assert.deepEqual(spec, {
      strategy: { type: "Recreate" },
      containers: [{ name: "a", env: [{ name: "X", value: "1" }] }],
    });
  });
});
