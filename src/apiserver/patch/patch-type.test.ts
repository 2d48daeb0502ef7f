/** decodePatchType: the four PATCH media types, parameters ignored, others refused. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodePatchType } from "./patch-type.js";

describe("decodePatchType", () => {
  it("maps each patch media type", () => {
    assert.equal(decodePatchType("application/json-patch+json"), "json");
    assert.equal(decodePatchType("application/merge-patch+json"), "merge");
    assert.equal(decodePatchType("application/strategic-merge-patch+json"), "strategic");
    assert.equal(decodePatchType("application/apply-patch+yaml"), "apply");
  });

  it("ignores parameters, case and surrounding space", () => {
    assert.equal(decodePatchType("application/merge-patch+json; charset=utf-8"), "merge");
    assert.equal(decodePatchType(" Application/JSON-Patch+JSON ;charset=UTF-8"), "json");
  });

  it("returns undefined for anything else", () => {
    for (const type of [
      "",
      "application/json",
      "application/apply-patch+cbor",
      "application/yaml",
      "constructor",
    ]) {
      assert.equal(decodePatchType(type), undefined, type);
    }
  });
});
