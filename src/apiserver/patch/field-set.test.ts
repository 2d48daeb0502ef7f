/**
 * Field sets: computeFieldSet on typed and untyped objects (kube's managedFields
 * FieldsV1 shapes), FieldsV1 round trips and the printed form of paths.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/types.js";
import { formatPath } from "./field-path.js";
import { FieldSet } from "./field-set.js";
import { namespaceSchema, workloadSchema } from "./fixtures.js";
import { computeFieldSet } from "./to-field-set.js";

describe("computeFieldSet", () => {
  it("records set items, map-list items by key, and leaves; not server-owned metadata", () => {
    const ns: KubeObject = {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: "team",
        uid: "0b1c",
        resourceVersion: "7",
        generation: 1,
        creationTimestamp: "2024-01-01T00:00:00Z",
        labels: { app: "web" },
        finalizers: ["a.io/x"],
        ownerReferences: [{ apiVersion: "v1", kind: "Tenant", name: "t", uid: "u1" }],
        managedFields: [
          {
            manager: "m",
            operation: "Update",
            apiVersion: "v1",
            fieldsType: "FieldsV1",
            fieldsV1: {},
          },
        ],
      },
      spec: { finalizers: ["kubernetes"] },
    };
    assert.deepEqual(computeFieldSet(ns, namespaceSchema), {
      "f:metadata": {
        "f:finalizers": { 'v:"a.io/x"': {} },
        "f:labels": { "f:app": {} },
        "f:ownerReferences": { 'k:{"uid":"u1"}': {} },
      },
      "f:spec": { "f:finalizers": {} },
    });
  });

  it("keys map-list items by all their keys, defaults included, in kube's order", () => {
    const workload: KubeObject = {
      apiVersion: "apps/v1",
      kind: "Workload",
      metadata: { name: "w" },
      spec: {
        replicas: 2,
        selector: { app: "web" },
        strategy: {},
        tags: ["b", "a"],
        containers: [
          {
            name: "app",
            image: "app:1",
            ports: [{ containerPort: 80 }, { containerPort: 53, protocol: "UDP" }],
            env: [{ name: "X", value: "1" }],
          },
        ],
      },
    };
    const fields = computeFieldSet(workload, workloadSchema);
    const expected = {
      "f:spec": {
        "f:containers": {
          'k:{"name":"app"}': {
            ".": {},
            "f:env": { 'k:{"name":"X"}': { ".": {}, "f:name": {}, "f:value": {} } },
            "f:image": {},
            "f:name": {},
            "f:ports": {
              'k:{"containerPort":53,"protocol":"UDP"}': {
                ".": {},
                "f:containerPort": {},
                "f:protocol": {},
              },
              'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {} },
            },
          },
        },
        "f:replicas": {},
        "f:selector": {},
        "f:strategy": {},
        "f:tags": { 'v:"a"': {}, 'v:"b"': {} },
      },
    };
    assert.equal(JSON.stringify(fields), JSON.stringify(expected), "same content, same key order");
  });

  it("treats an untyped object's maps as granular (every map a member) and lists as atomic", () => {
    const obj: KubeObject = {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w", labels: { a: "1" } },
      spec: { a: { b: 1 }, l: [1, 2], e: {}, n: null },
    };
    assert.deepEqual(computeFieldSet(obj, undefined), {
      "f:metadata": { "f:labels": { ".": {}, "f:a": {} } },
      "f:spec": { ".": {}, "f:a": { ".": {}, "f:b": {} }, "f:e": {}, "f:l": {}, "f:n": {} },
    });
  });
});

describe("FieldSet", () => {
  const fieldsV1 = {
    "f:data": { ".": {}, "f:a": {} },
    "f:spec": { "f:containers": { 'k:{"name":"x"}': { ".": {}, "f:image": {} } } },
  };

  it("round-trips FieldsV1 and answers membership", () => {
    const set = FieldSet.fromFieldsV1(fieldsV1);
    assert.deepEqual(set.toFieldsV1(), fieldsV1);
    assert.ok(set.has(["f:data"]));
    assert.ok(set.has(["f:data", "f:a"]));
    assert.ok(!set.has(["f:spec"]));
    assert.ok(set.has(["f:spec", "f:containers", 'k:{"name":"x"}']));
    assert.deepEqual(set.paths().map(formatPath), [
      ".data",
      ".data.a",
      '.spec.containers[name="x"]',
      '.spec.containers[name="x"].image',
    ]);
  });

  it("normalizes stored keys and rejects malformed elements", () => {
    const set = FieldSet.fromFieldsV1({ "f:l": { 'k:{"b": 2, "a": "x"}': {} } });
    assert.deepEqual(set.toFieldsV1(), { "f:l": { 'k:{"a":"x","b":2}': {} } });
    assert.throws(() => FieldSet.fromFieldsV1({ nocolon: {} }));
    assert.throws(() => FieldSet.fromFieldsV1({ "z:x": {} }));
  });

  it("computes union, difference and intersection", () => {
    const a = FieldSet.of([["f:a"], ["f:b", "f:c"]]);
    const b = FieldSet.of([["f:b", "f:c"], ["f:d"]]);
    assert.deepEqual(a.union(b).paths(), [["f:a"], ["f:d"], ["f:b", "f:c"]]);
    assert.deepEqual(a.difference(b).paths(), [["f:a"]]);
    assert.deepEqual(a.intersection(b).paths(), [["f:b", "f:c"]]);
    assert.ok(a.difference(a).isEmpty());
  });

  it("prints paths as kube's conflict messages do", () => {
    assert.equal(
      formatPath(["f:spec", "f:ports", 'k:{"containerPort":80,"protocol":"TCP"}', "f:name"]),
      '.spec.ports[containerPort=80,protocol="TCP"].name',
    );
    assert.equal(
      formatPath(["f:metadata", "f:finalizers", 'v:"a.io/x"']),
      '.metadata.finalizers[="a.io/x"]',
    );
    assert.equal(formatPath(["f:items", "i:3"]), ".items[3]");
  });
});
