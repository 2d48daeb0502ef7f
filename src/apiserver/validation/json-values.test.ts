/** Own keys and deep copies of decoded JSON. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { copyJson, isOwnKey } from "./json-values.js";

describe("copyJson", () => {
  it("copies like structuredClone, sharing no object or array", () => {
    const value = JSON.parse(
      '{"a":[1,{"b":null,"c":[true,"x"]}],"d":{"e":-0,"f":1.5},"g":"","1":{"h":[]}}',
    );
    const copy = copyJson(value);
    assert.deepEqual(copy, structuredClone(value));
    assert.deepEqual(Object.keys(copy), Object.keys(value));
    assert.ok(Object.is(copy.d.e, -0));
    assert.notEqual(copy.a, value.a);
    assert.notEqual(copy.a[1], value.a[1]);
    assert.notEqual(copy["1"].h, value["1"].h);
  });

  it("keeps an own __proto__ key as a field, as structuredClone does", () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"x":1}');
    const copy = copyJson(value);
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
    assert.equal((copy as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(Object.keys(copy), ["__proto__", "x"]);
    assert.equal(JSON.stringify(copy), JSON.stringify(structuredClone(value)));
  });

  it("returns primitives and null as they are", () => {
    for (const v of [null, 0, "s", false]) assert.equal(copyJson(v), v);
  });
});

describe("isOwnKey", () => {
  it("tells own keys from inherited ones", () => {
    const proto = { inherited: 1 };
    const obj = Object.assign(Object.create(proto) as Record<string, number>, { own: 2 });
    const keys: string[] = [];
    for (const key in obj) if (isOwnKey(obj, key)) keys.push(key);
    assert.deepEqual(keys, ["own"]);
  });
});
