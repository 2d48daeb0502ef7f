/**
 * resource.Quantity and intstr.IntOrString from hand-assembled wire bytes: their
 * JSON scalars, the zero and merge rules, and the bodies apimachinery refuses.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bytes, fixedField, lField, vField } from "../../../test/support/protobuf/test-writer.js";
import { decodeIntOrString, decodeQuantity } from "./scalar-messages.js";
import { ProtobufDecodeError } from "./wire.js";

function malformed(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ProtobufDecodeError);
    assert.equal(e.code, "malformed");
    assert.match(e.message, message);
    return true;
  });
}

describe("decodeQuantity", () => {
  it("renders the string kubectl wrote, keeping the last of repeats", () => {
    assert.equal(decodeQuantity(bytes(lField(1, "250m"))), "250m");
    assert.equal(decodeQuantity(bytes(lField(1, "1"), lField(1, "64Mi"))), "64Mi");
    assert.equal(decodeQuantity(bytes(vField(9, 1), lField(1, "1e3"), fixedField(10, 4))), "1e3");
  });

  it("refuses a quantity that does not parse, and an empty one", () => {
    malformed(() => decodeQuantity(bytes(lField(1, "lots"))), /quantity "lots" does not parse/);
    malformed(() => decodeQuantity(bytes()), /quantity "" does not parse/);
    malformed(() => decodeQuantity(bytes(vField(1, 3))), /wrong wire type 0 in Quantity/);
  });
});

describe("decodeIntOrString", () => {
  it("renders intVal for type Int and strVal for type String", () => {
    assert.equal(decodeIntOrString(bytes(vField(1, 0), vField(2, 8080))), 8080);
    assert.equal(decodeIntOrString(bytes(vField(1, 1), lField(3, "http"))), "http");
  });

  it("renders the zero of the named type when its value is absent", () => {
    assert.equal(decodeIntOrString(bytes()), 0);
    assert.equal(decodeIntOrString(bytes(vField(1, 1))), "");
    // The value of the other type is carried but not rendered.
    assert.equal(decodeIntOrString(bytes(vField(1, 0), lField(3, "http"))), 0);
  });

  it("reads a negative intVal as int32", () => {
    assert.equal(decodeIntOrString(bytes(vField(2, -1))), -1);
  });

  it("refuses an unknown type and wrong wire types", () => {
    malformed(
      () => decodeIntOrString(bytes(vField(1, 2), vField(2, 1))),
      /IntOrString type 2 is neither 0 \(Int\) nor 1 \(String\)/,
    );
    malformed(() => decodeIntOrString(bytes(lField(2, "80"))), /wrong wire type 2 in IntOrString/);
    malformed(() => decodeIntOrString(bytes(vField(3, 1))), /wrong wire type 0 in IntOrString/);
  });
});
