/** Go-style printing of JSON values, used to word errors as apimachinery does. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { getKey, goFormat, goJsonTypeName, goTypeName, jsonKind, setKey } from "./json-value.js";

describe("Go-style printing", () => {
  it("formats values as %v does for decoded JSON", () => {
    assert.equal(goFormat({ b: 1, a: ["x", true], c: null }), "map[a:[x true] b:1 c:<nil>]");
    assert.equal(goFormat([]), "[]");
    assert.equal(goFormat("s"), "s");
  });

  it("names types as reflect and encoding/json do", () => {
    assert.equal(goTypeName({}), "map[string]interface {}");
    assert.equal(goTypeName([]), "[]interface {}");
    assert.equal(goTypeName(1), "int64");
    assert.equal(goTypeName(1.5), "float64");
    assert.equal(goTypeName(false), "bool");
    assert.equal(goTypeName(null), "%!s(<nil>)");
    assert.equal(goJsonTypeName(true), "bool");
    assert.equal(goJsonTypeName({}), "object");
    assert.equal(jsonKind(undefined), "null");
  });
});

describe("own keys", () => {
  it("reads and writes __proto__ as plain data", () => {
    const m: Record<string, unknown> = {};
    assert.equal(getKey(m, "__proto__"), undefined);
    assert.equal(getKey(m, "toString"), undefined);
    setKey(m, "__proto__", { polluted: true });
    assert.deepEqual(getKey(m, "__proto__"), { polluted: true });
    assert.equal((m as { polluted?: boolean }).polluted, undefined);
    assert.equal(Object.getPrototypeOf(m), Object.prototype);
  });
});
