/**
 * serverSideApply on lists and shapes: map lists merged by key, sets, untyped
 * (atomic) lists, merge order, and the 400s for configurations the schema
 * cannot hold or that name another kind or version.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { namespaceSchema, workloadSchema } from "../../../test/support/fixtures/patch.js";
import type { KubeObject } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import { serverSideApply } from "./server-side-apply.js";
import { mergeTyped } from "./typed-merge.js";

const T1 = "2024-05-01T10:00:00Z";

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

describe("serverSideApply on lists", () => {
  const workload = (containers: unknown[], extra: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: "apps/v1",
    kind: "Workload",
    metadata: { name: "w", namespace: "default" },
    spec: { ...extra, containers },
  });
  const applyW = (
    live: KubeObject | undefined,
    applied: KubeObject,
    manager: string,
    force = false,
  ) =>
    serverSideApply({
      live,
      applied,
      manager,
      force,
      schema: workloadSchema,
      apiVersion: "apps/v1",
      now: T1,
    });

  it("merges map lists by key and prunes only the applier's own items", () => {
    const one = applyW(undefined, workload([{ name: "app", image: "app:1" }]), "alice");
    const two = applyW(one, workload([{ name: "sidecar", image: "s:1" }]), "bob");
    assert.deepEqual(two.spec, {
      containers: [
        { name: "app", image: "app:1" },
        { name: "sidecar", image: "s:1" },
      ],
    });
    assert.deepEqual(two.metadata.managedFields?.[1]?.fieldsV1, {
      "f:spec": {
        "f:containers": { 'k:{"name":"sidecar"}': { ".": {}, "f:image": {}, "f:name": {} } },
      },
    });
    const three = applyW(two, workload([{ name: "app", image: "app:2" }]), "alice");
    assert.deepEqual((three.spec as { containers: unknown[] }).containers, [
      { name: "app", image: "app:2" },
      { name: "sidecar", image: "s:1" },
    ]);
    const four = applyW(three, { ...workload([]), spec: { replicas: 2 } }, "alice");
    assert.deepEqual(four.spec, { containers: [{ name: "sidecar", image: "s:1" }], replicas: 2 });
  });

  it("conflicts on a field of another manager's list item", () => {
    const one = applyW(undefined, workload([{ name: "app", image: "app:1" }]), "alice");
    const err = conflict(() => applyW(one, workload([{ name: "app", image: "app:2" }]), "bob"));
    assert.equal(
      err.message,
      'Apply failed with 1 conflict: conflict with "alice": .spec.containers[name="app"].image',
    );
  });

  it("merges set lists item by item", () => {
    const ns = (finalizers: string[]): KubeObject => ({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "n", finalizers },
    });
    const applyN = (live: KubeObject | undefined, applied: KubeObject, manager: string) =>
      serverSideApply({
        live,
        applied,
        manager,
        force: false,
        schema: namespaceSchema,
        apiVersion: "v1",
        now: T1,
      });
    const one = applyN(undefined, ns(["a.io/x"]), "alice");
    const two = applyN(one, ns(["b.io/y"]), "bob");
    assert.deepEqual(two.metadata.finalizers, ["a.io/x", "b.io/y"]);
    const three = applyN(two, ns([]), "alice");
    assert.deepEqual(three.metadata.finalizers, ["b.io/y"]);
  });

  it("treats lists without a schema as atomic", () => {
    const widget = (items: number[]): KubeObject => ({
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { items },
    });
    const applyU = (
      live: KubeObject | undefined,
      applied: KubeObject,
      manager: string,
      force = false,
    ) =>
      serverSideApply({
        live,
        applied,
        manager,
        force,
        schema: undefined,
        apiVersion: "example.com/v1",
        now: T1,
      });
    const one = applyU(undefined, widget([1, 2]), "alice");
    assert.deepEqual(one.metadata.managedFields?.[0]?.fieldsV1, {
      "f:spec": { ".": {}, "f:items": {} },
    });
    const err = conflict(() => applyU(one, widget([3]), "bob"));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "alice": .spec.items');
    assert.deepEqual(applyU(one, widget([3]), "bob", true).spec, { items: [3] });
  });

  it("rejects configurations the schema cannot hold, and mismatched kinds or versions", () => {
    const bad = (fn: () => unknown, message: string) =>
      assert.throws(
        fn,
        (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === message,
      );
    bad(
      () => applyW(undefined, workload([{ name: "app" }, { name: "app" }]), "alice"),
      'failed to create typed patch object (default/w; apps/v1, Kind=Workload): .spec.containers: duplicate entries for key [name="app"]',
    );
    bad(
      () => applyW(undefined, workload(["app"]), "alice"),
      "failed to create typed patch object (default/w; apps/v1, Kind=Workload): .spec.containers: element 0: associative list with keys may not have non-map elements",
    );
    bad(
      () => applyW(undefined, { ...workload([]), apiVersion: "apps/v2" }, "alice"),
      "Incorrect version specified in apply patch. Specified patch version: apps/v2, expected: apps/v1",
    );
    const live = applyW(undefined, workload([]), "alice");
    bad(
      () => applyW(live, { ...workload([]), kind: "Other" }, "alice"),
      "invalid object type: apps/v1, Kind=Other",
    );
    bad(
      () =>
        applyW(undefined, { ...workload([]), metadata: { name: "w", managedFields: [] } }, "alice"),
      "metadata.managedFields must be nil",
    );
  });
});

describe("mergeTyped list order", () => {
  const setSchema = namespaceSchema.properties?.metadata?.properties?.finalizers;
  const containers = workloadSchema.properties?.spec?.properties?.containers;
  const named = (...names: string[]) => names.map((name) => ({ name }));

  it("keeps live order for items the configuration does not name", () => {
    assert.deepEqual(mergeTyped(["a", "b", "c"], ["c", "a"], setSchema), ["b", "c", "a"]);
    assert.deepEqual(
      mergeTyped(named("x", "y"), named("y", "z"), containers),
      named("x", "y", "z"),
    );
  });

  it("follows the configuration's order for the items it names", () => {
    assert.deepEqual(
      mergeTyped(named("a", "b"), named("b", "new", "a"), containers),
      named("b", "new", "a"),
    );
  });

  it("merges a named item's fields and keeps live-only fields", () => {
    assert.deepEqual(
      mergeTyped([{ name: "a", image: "1", args: ["x"] }], [{ name: "a", image: "2" }], containers),
      [{ name: "a", image: "2", args: ["x"] }],
    );
  });

  it("lets a configuration null leave a live map alone but replace a scalar", () => {
    assert.deepEqual(mergeTyped({ a: { b: 1 }, c: 1 }, { a: null, c: null }, undefined), {
      a: { b: 1 },
      c: null,
    });
  });
});

describe("pruning declared fields", () => {
  const applyW = (
    live: KubeObject | undefined,
    spec: Record<string, unknown> | undefined,
    manager: string,
  ) =>
    serverSideApply({
      live,
      applied: {
        apiVersion: "apps/v1",
        kind: "Workload",
        metadata: { name: "w" },
        ...(spec ? { spec } : {}),
      },
      manager,
      force: false,
      schema: workloadSchema,
      apiVersion: "apps/v1",
      now: T1,
    });

  it("keeps a struct another manager still owns something under", () => {
    const one = applyW(undefined, { replicas: 2, paused: true }, "alice");
    const two = applyW(one, { selector: { app: "web" } }, "bob");
    const three = applyW(two, undefined, "alice");
    assert.deepEqual(three.spec, { selector: { app: "web" } });
    assert.deepEqual(
      three.metadata.managedFields?.map((e) => e.manager),
      ["bob"],
      "alice applied nothing it can own, so her entry goes",
    );
  });

  it("drops the struct when its last owner stops applying it", () => {
    const one = applyW(undefined, { replicas: 2, strategy: { type: "Recreate" } }, "alice");
    const two = applyW(one, { replicas: 2 }, "alice");
    assert.deepEqual(two.spec, { replicas: 2 });
  });
});
