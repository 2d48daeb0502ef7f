/**
 * Field sets: computeFieldSet on typed and untyped objects (kube's managedFields
 * FieldsV1 shapes), FieldsV1 round trips and the printed form of paths.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { namespaceSchema, workloadSchema } from "../../../test/support/fixtures/patch.js";
import type { KubeObject } from "../../api/index.js";
import { type FieldPath, formatPath } from "./field-path.js";
import { FieldSet } from "./field-set.js";
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

  it("combines sets as sets of paths, whatever nodes they share, and leaves operands alone", () => {
    const groups: FieldPath[][] = [
      [],
      [["f:a"]],
      [["f:a"], ["f:a", "f:b"], ["f:a", "f:b", "f:c"]],
      [["f:a", "f:b"], ["f:d"], ["f:l", 'k:{"name":"x"}', "f:image"]],
      [["f:a"], ["f:a", "f:c"], ["f:d", "f:e"], ["f:l", 'k:{"name":"x"}']],
      [["f:d"], ["f:d", "f:e"], ["f:l", 'k:{"name":"x"}', "f:image"], ["f:l", 'v:"y"']],
    ];
    const key = (p: FieldPath) => JSON.stringify(p);
    const naive = (
      a: FieldPath[],
      b: FieldPath[],
      keep: (inA: boolean, inB: boolean) => boolean,
    ) => {
      const inA = new Set(a.map(key));
      const inB = new Set(b.map(key));
      return [...new Set([...inA, ...inB])].filter((k) => keep(inA.has(k), inB.has(k))).sort();
    };
    const listed = (set: FieldSet) => set.paths().map(key).sort();
    for (const a of groups) {
      for (const b of groups) {
        const x = FieldSet.of(a);
        const y = FieldSet.of(b);
        const [before, other] = [listed(x), listed(y)];
        assert.deepEqual(
          listed(x.union(y)),
          naive(a, b, (p, q) => p || q),
        );
        assert.deepEqual(
          listed(x.difference(y)),
          naive(a, b, (p, q) => p && !q),
        );
        assert.deepEqual(
          listed(x.intersection(y)),
          naive(a, b, (p, q) => p && q),
        );
        // Results of results: shared nodes must still read as their own set.
        const both = x.union(y).difference(x.intersection(y));
        assert.deepEqual(
          listed(both),
          naive(a, b, (p, q) => p !== q),
        );
        assert.deepEqual(both.toFieldsV1(), FieldSet.of(both.paths()).toFieldsV1());
        assert.equal(x.union(y).isEmpty(), a.length + b.length === 0);
        assert.deepEqual([listed(x), listed(y)], [before, other]);
      }
    }
  });

  it("refuses inserts once a set has been combined or shared", () => {
    const a = FieldSet.of([["f:a"]]);
    const b = FieldSet.of([["f:b"]]);
    const union = a.union(b);
    for (const set of [a, b, union, FieldSet.of([["f:c"]]).withPrefix("f:c")]) {
      assert.throws(() => set.insert(["f:z"]), /read-only/);
    }
    assert.deepEqual(union.paths(), [["f:a"], ["f:b"]]);
  });

  it("orders a level's elements as SMD does: fields, keys, values, indices", () => {
    const elements = [
      "i:10",
      'v:"b"',
      "f:b",
      'k:{"name":"b"}',
      "i:2",
      "v:true",
      'k:{"name":"a","port":80}',
      "v:1",
      "f:B",
      'k:{"name":"a","port":"80"}',
      "f:a",
      'k:{"name":"a"}',
      "v:null",
      'v:"a"',
      "f:",
      "v:2",
      'k:{"port":1}',
      'k:{"name":1}',
    ];
    const sorted = [
      "f:",
      "f:B",
      "f:a",
      "f:b",
      'k:{"name":1}',
      'k:{"name":"a"}',
      'k:{"name":"a","port":80}',
      'k:{"name":"a","port":"80"}',
      'k:{"name":"b"}',
      'k:{"port":1}',
      "v:1",
      "v:2",
      'v:"a"',
      'v:"b"',
      "v:true",
      "v:null",
      "i:2",
      "i:10",
    ];
    // More than 16 elements sort one way, fewer another; both give SMD's order.
    for (const some of [elements, elements.slice(0, 9), elements.slice(9)]) {
      const expected = sorted.filter((pe) => some.includes(pe));
      const set = FieldSet.of(some.map((pe) => ["f:l", pe]));
      assert.deepEqual(Object.keys(set.toFieldsV1()["f:l"] ?? {}), expected);
      assert.deepEqual(
        set.paths().map((path) => path[1]),
        expected,
      );
    }
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
