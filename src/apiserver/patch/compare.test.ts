/** compareObjects: added, modified and removed paths for maps, lists, nulls and duplicates. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { namespaceSchema, workloadSchema } from "../../../test/support/fixtures/patch.js";
import { type Comparison, compareObjects } from "./compare.js";
import { formatPath } from "./field-path.js";

const printed = (c: Comparison) => ({
  added: c.added.paths().map(formatPath),
  modified: c.modified.paths().map(formatPath),
  removed: c.removed.paths().map(formatPath),
});

describe("compareObjects", () => {
  it("reports a new map as added, itself and its contents", () => {
    assert.deepEqual(
      printed(compareObjects({ kind: "X" }, { kind: "X", spec: { a: 1, b: { c: 2 } } }, undefined)),
      {
        added: [".spec", ".spec.a", ".spec.b", ".spec.b.c"],
        modified: [],
        removed: [],
      },
    );
  });

  it("reports changed leaves as modified and vanished subtrees as removed", () => {
    const before = { spec: { a: 1, b: { c: 1 }, d: [1, 2] } };
    const after = { spec: { a: 2, d: [2, 1] } };
    assert.deepEqual(printed(compareObjects(before, after, undefined)), {
      added: [],
      modified: [".spec.a", ".spec.d"],
      removed: [".spec.b", ".spec.b.c"],
    });
  });

  it("compares a null that becomes a map through the map's contents", () => {
    assert.deepEqual(printed(compareObjects({ spec: null }, { spec: { a: 1 } }, undefined)), {
      added: [".spec.a"],
      modified: [],
      removed: [],
    });
    assert.deepEqual(printed(compareObjects({ spec: null }, { spec: {} }, undefined)), {
      added: [],
      modified: [".spec"],
      removed: [],
    });
  });

  it("compares set and map lists item by item", () => {
    const before = {
      metadata: { finalizers: ["a", "b"] },
    };
    const after = {
      metadata: { finalizers: ["b", "c"] },
    };
    assert.deepEqual(printed(compareObjects(before, after, namespaceSchema)), {
      added: ['.metadata.finalizers[="c"]'],
      modified: [],
      removed: ['.metadata.finalizers[="a"]'],
    });
    const spec = (containers: unknown[]) => ({ spec: { containers } });
    const c = compareObjects(
      spec([{ name: "a", image: "1" }, { name: "b" }]),
      spec([{ name: "b" }, { name: "a", image: "2" }]),
      workloadSchema,
    );
    assert.deepEqual(printed(c), {
      added: [],
      modified: ['.spec.containers[name="a"].image'],
      removed: [],
    });
  });

  it("compares an atomic map as one leaf", () => {
    const c = compareObjects(
      { spec: { selector: { a: "1" } } },
      { spec: { selector: { a: "2", b: "1" } } },
      workloadSchema,
    );
    assert.deepEqual(printed(c), { added: [], modified: [".spec.selector"], removed: [] });
  });

  it("survives duplicate keys in a stored list", () => {
    const spec = (containers: unknown[]) => ({ spec: { containers } });
    const c = compareObjects(
      spec([
        { name: "a", image: "1" },
        { name: "a", image: "2" },
      ]),
      spec([{ name: "a", image: "1" }]),
      workloadSchema,
    );
    assert.ok(c.removed.has(["f:spec", "f:containers", 'k:{"name":"a"}']));
    assert.ok(c.added.has(["f:spec", "f:containers", 'k:{"name":"a"}', "f:image"]));
  });

  it("walks keys found on either side only, own keys included, and nested new lists", () => {
    const before = JSON.parse(
      '{"spec":{"a":1,"gone":{"x":1},"__proto__":{"p":1},"tags":["a","a"],"m":{}}}',
    );
    const after = JSON.parse(
      '{"spec":{"a":1,"new":{"y":[1]},"__proto__":{"p":2},"tags":["a","b"],"m":null,' +
        '"containers":[{"name":"c","ports":[{"containerPort":1}]}]}}',
    );
    const c = '.spec.containers[name="c"]';
    const port = `${c}.ports[containerPort=1,protocol="TCP"]`;
    assert.deepEqual(printed(compareObjects(before, after, workloadSchema)), {
      added: [
        ".spec.containers",
        ".spec.new",
        c,
        `${c}.name`,
        `${c}.ports`,
        port,
        `${port}.containerPort`,
        ".spec.new.y",
        '.spec.tags[="a"]',
        '.spec.tags[="b"]',
      ],
      modified: [".spec.m", ".spec.__proto__.p"],
      removed: [".spec.gone", ".spec.gone.x", '.spec.tags[="a"]'],
    });
  });

  it("compares a list whose items cannot be keyed as one leaf", () => {
    const c = compareObjects(
      { spec: { containers: ["x"] } },
      { spec: { containers: ["y"] } },
      workloadSchema,
    );
    assert.deepEqual(printed(c), { added: [], modified: [".spec.containers"], removed: [] });
  });
});
