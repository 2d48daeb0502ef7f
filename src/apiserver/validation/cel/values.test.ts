/** JSON values as CEL values under a schema: numbers, escaping, the resource root. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isCelList, isCelMap } from "@bufbuild/cel";
import { escapePropertyName, toCel } from "./values.js";

describe("escapePropertyName", () => {
  it("escapes as kube does, and gives up on names CEL cannot spell", () => {
    assert.equal(escapePropertyName("image"), "image");
    assert.equal(escapePropertyName("max-surge"), "max__dash__surge");
    assert.equal(escapePropertyName("a.b/c__d"), "a__dot__b__slash__c__underscores__d");
    assert.equal(escapePropertyName("namespace"), "__namespace__");
    assert.equal(escapePropertyName("1st"), undefined);
  });
});

describe("toCel", () => {
  it("makes integers CEL ints and numbers doubles", () => {
    assert.equal(toCel(3, { type: "integer" }), 3n);
    assert.equal(toCel(3, { type: "number" }), 3);
    assert.equal(toCel(3, { "x-kubernetes-int-or-string": true }), 3n);
    assert.equal(toCel(2.5, undefined), 2.5);
  });

  it("makes lists and maps, with declared properties only and escaped names", () => {
    const value = toCel(
      { "max-surge": "1", extra: true, tags: ["a"] },
      {
        type: "object",
        properties: {
          "max-surge": { type: "string" },
          tags: { type: "array", items: { type: "string" } },
        },
      },
    );
    assert.ok(isCelMap(value));
    assert.deepEqual([...value.keys()].sort(), ["max__dash__surge", "tags"]);
    assert.ok(isCelList(value.get("tags")));
  });

  it("shows only name and generateName of metadata at a resource root", () => {
    const value = toCel(
      { apiVersion: "v1", kind: "X", metadata: { name: "n", labels: { a: "b" } } },
      { type: "object", properties: {} },
      true,
    );
    assert.ok(isCelMap(value));
    const meta = value.get("metadata");
    assert.ok(isCelMap(meta));
    assert.deepEqual([...meta.keys()], ["name"]);
    assert.equal(value.get("kind"), "X");
  });
});
