/** Single-node value checks, field error wording and formats. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fieldErrorMessage } from "../../api/errors.js";
import { duplicate, notSupported } from "./field-errors.js";
import { matchesFormat } from "./formats.js";
import { checkNumber, checkPropertyCount, checkString } from "./value-checks.js";

describe("value checks", () => {
  it("uses exclusive bounds wording", () => {
    const s = { minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true };
    assert.deepEqual(checkNumber("x", 0, s).map(fieldErrorMessage), [
      "x: Invalid value: 0: x in body should be greater than 0",
    ]);
    assert.deepEqual(checkNumber("x", 5, s).map(fieldErrorMessage), [
      "x: Invalid value: 5: x in body should be less than 5",
    ]);
    assert.deepEqual(checkNumber("x", 2.5, s), []);
  });

  it("counts characters, not UTF-16 units, for maxLength", () => {
    assert.deepEqual(checkString("s", "😀😀", { maxLength: 2 }), []);
    assert.equal(checkString("s", "😀😀😀", { maxLength: 2 }).length, 1);
  });

  it("treats an invalid pattern as non-matching instead of throwing", () => {
    assert.equal(checkString("s", "a", { pattern: "(" }).length, 1);
  });

  it("reports property counts", () => {
    assert.deepEqual(
      checkPropertyCount("m", { a: 1, b: 2 }, { maxProperties: 1 }).map(fieldErrorMessage),
      ["m: Too many: 2: must have at most 1 items"],
    );
    assert.deepEqual(checkPropertyCount("m", {}, { minProperties: 1 }).map(fieldErrorMessage), [
      'm: Invalid value: "object": m in body should have at least 1 properties',
    ]);
  });

  it("quotes supported values like apimachinery (JSON for non-strings)", () => {
    assert.equal(
      fieldErrorMessage(notSupported("n", 3, [1, 2])),
      'n: Unsupported value: 3: supported values: "1", "2"',
    );
    assert.equal(fieldErrorMessage(duplicate("l[1]", 7)), "l[1]: Duplicate value: 7");
  });

  it("checks formats", () => {
    assert.equal(matchesFormat("byte", "aGVsbG8="), true);
    assert.equal(matchesFormat("byte", "aGVsbG8"), false);
    assert.equal(matchesFormat("date-time", "2024-02-29T23:59:59.123456Z"), true);
    assert.equal(matchesFormat("date-time", "2024-01-02T03:04:05+02:00"), true);
    assert.equal(matchesFormat("date-time", "2023-02-29T00:00:00Z"), false);
    assert.equal(matchesFormat("date-time", "2024-01-02T24:00:00Z"), false);
    assert.equal(matchesFormat("date-time", "2024-02-03"), false);
    assert.equal(matchesFormat("date", "2024-02-03"), true);
    assert.equal(matchesFormat("date", "2024-13-03"), false);
    assert.equal(matchesFormat("uuid", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"), true);
    assert.equal(matchesFormat("uuid", "nope"), false);
    assert.equal(matchesFormat("hostname", "anything goes"), true);
  });
});
