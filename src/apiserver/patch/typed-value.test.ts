/** Atoms and list-item path elements: how apply sees values through their schema. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../api/index.js";
import { atomOf, ListItemError, listElements, listItemElement } from "./typed-value.js";

const keyed = { kind: "map" as const, keys: ["port", "protocol"] };
const ports: Schema = {
  type: "object",
  properties: { port: { type: "integer" }, protocol: { type: "string", default: "TCP" } },
};

describe("atomOf", () => {
  it("deduces shapes where there is no schema: maps granular, lists atomic", () => {
    assert.deepEqual(atomOf(undefined, { a: 1 }), { kind: "map", atomic: false });
    assert.deepEqual(atomOf(undefined, [1]), {
      kind: "list",
      shape: { kind: "atomic" },
      items: undefined,
    });
    assert.deepEqual(atomOf(undefined, "x"), { kind: "leaf" });
    assert.deepEqual(atomOf(undefined, null), { kind: "leaf" });
  });

  it("follows the schema, and treats a value of the wrong shape as a leaf", () => {
    const set: Schema = {
      type: "array",
      items: { type: "string" },
      "x-kubernetes-list-type": "set",
    };
    assert.deepEqual(atomOf(set, ["a"]), {
      kind: "list",
      shape: { kind: "set" },
      items: { type: "string" },
    });
    assert.deepEqual(atomOf({ type: "object", "x-kubernetes-map-type": "atomic" }, {}), {
      kind: "map",
      atomic: true,
    });
    assert.deepEqual(atomOf({ type: "string" }, { a: 1 }), { kind: "leaf" });
    assert.deepEqual(atomOf({ type: "object", properties: {} }, [1]), {
      kind: "list",
      shape: { kind: "atomic" },
      items: undefined,
    });
    assert.deepEqual(atomOf({ type: "string", "x-kubernetes-int-or-string": true }, 3), {
      kind: "leaf",
    });
  });

  it("treats preserve-unknown-fields objects as untyped maps", () => {
    const open: Schema = { type: "object", "x-kubernetes-preserve-unknown-fields": true };
    assert.deepEqual(atomOf(open, { a: 1 }), { kind: "map", atomic: false });
  });
});

describe("listItemElement", () => {
  it("keys map-list items by their key fields, sorted, with schema defaults", () => {
    assert.equal(
      listItemElement(keyed, { protocol: "UDP", port: 53 }, ports),
      'k:{"port":53,"protocol":"UDP"}',
    );
    assert.equal(
      listItemElement(keyed, { port: 80, name: "http" }, ports),
      'k:{"port":80,"protocol":"TCP"}',
    );
    assert.equal(listItemElement(keyed, { port: 80 }, undefined), 'k:{"port":80}');
  });

  it("identifies set items by value", () => {
    assert.equal(listItemElement({ kind: "set" }, "a", undefined), 'v:"a"');
    assert.equal(listItemElement({ kind: "set" }, 3, undefined), "v:3");
    assert.equal(listItemElement({ kind: "set" }, true, undefined), "v:true");
  });

  it("refuses items that cannot be placed, with SMD's messages", () => {
    const refuses = (
      shape: Parameters<typeof listItemElement>[0],
      item: unknown,
      message: string,
    ) =>
      assert.throws(
        () => listItemElement(shape, item, undefined),
        (e: unknown) => e instanceof ListItemError && e.message === message,
      );
    refuses(keyed, null, "associative list with keys may not have a null element");
    refuses(keyed, "x", "associative list with keys may not have non-map elements");
    refuses(
      { kind: "set" },
      { a: 1 },
      "associative list without keys has an element that's a map type",
    );
    refuses({ kind: "set" }, [1], "not supported: associative list with lists as elements");
    refuses(
      { kind: "set" },
      null,
      "associative list without keys has an element that's an explicit null",
    );
  });

  it("gives up on a whole list when one item cannot be placed", () => {
    assert.deepEqual(listElements({ kind: "set" }, ["a", "b"], undefined), ['v:"a"', 'v:"b"']);
    assert.equal(listElements({ kind: "set" }, ["a", { b: 1 }], undefined), undefined);
  });
});
