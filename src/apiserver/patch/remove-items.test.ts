/** removeItems: whole subtrees go, emptied maps and lists go with them, atomic values stay whole. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { workloadSchema } from "../../../test/support/fixtures/patch.js";
import { FieldSet } from "./field-set.js";
import { removeItems } from "./remove-items.js";

const object = () => ({
  apiVersion: "apps/v1",
  kind: "Workload",
  metadata: { name: "w", labels: { a: "1" } },
  spec: {
    replicas: 1,
    selector: { app: "web" },
    tags: ["x", "y"],
    containers: [
      { name: "app", image: "app:1", env: [{ name: "A", value: "1" }] },
      { name: "log", image: "log:1" },
    ],
  },
});

describe("removeItems", () => {
  it("removes leaves, list items by key and set items by value", () => {
    const out = removeItems(
      object(),
      FieldSet.of([
        ["f:spec", "f:replicas"],
        ["f:spec", "f:containers", 'k:{"name":"log"}'],
        ["f:spec", "f:tags", 'v:"x"'],
        ["f:spec", "f:containers", 'k:{"name":"app"}', "f:env", 'k:{"name":"A"}', "f:value"],
      ]),
      workloadSchema,
    );
    assert.deepEqual(out.spec, {
      selector: { app: "web" },
      tags: ["y"],
      containers: [{ name: "app", image: "app:1", env: [{ name: "A" }] }],
    });
  });

  it("drops maps and lists it empties", () => {
    const out = removeItems(
      object(),
      FieldSet.of([
        ["f:metadata", "f:labels", "f:a"],
        ["f:spec", "f:tags", 'v:"x"'],
        ["f:spec", "f:tags", 'v:"y"'],
      ]),
      workloadSchema,
    );
    assert.deepEqual(out.metadata, { name: "w" });
    assert.equal((out.spec as Record<string, unknown>).tags, undefined);
  });

  it("removes an atomic map only as a whole", () => {
    const kept = removeItems(
      object(),
      FieldSet.of([["f:spec", "f:selector", "f:app"]]),
      workloadSchema,
    );
    assert.deepEqual((kept.spec as Record<string, unknown>).selector, { app: "web" });
    const gone = removeItems(object(), FieldSet.of([["f:spec", "f:selector"]]), workloadSchema);
    assert.equal((gone.spec as Record<string, unknown>).selector, undefined);
  });

  it("returns the object untouched for an empty set, and never undefined", () => {
    const obj = object();
    assert.equal(removeItems(obj, FieldSet.empty(), workloadSchema), obj);
    const everything = FieldSet.of([["f:apiVersion"], ["f:kind"], ["f:metadata"], ["f:spec"]]);
    assert.deepEqual(removeItems(object(), everything, workloadSchema), {});
  });
});
