/** Single-node value checks, field error wording and formats. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type FieldError, fieldErrorMessage } from "../../api/index.js";
import { duplicate, notSupported } from "./field-errors.js";
import { matchesFormat } from "./formats.js";
import type { LazyPath } from "./path-stack.js";
import { checkNumber, checkPropertyCount, checkRequired, checkString } from "./value-checks.js";

/** Runs one check at `path` and returns what it reported. */
function check<V, S>(
  fn: (errors: FieldError[], path: LazyPath, value: V, schema: S) => void,
  path: string,
  value: V,
  schema: S,
): FieldError[] {
  const errors: FieldError[] = [];
  fn(errors, () => path, value, schema);
  return errors;
}

describe("value checks", () => {
  it("uses exclusive bounds wording", () => {
    const s = { minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true };
    assert.deepEqual(check(checkNumber, "x", 0, s).map(fieldErrorMessage), [
      "x: Invalid value: 0: x in body should be greater than 0",
    ]);
    assert.deepEqual(check(checkNumber, "x", 5, s).map(fieldErrorMessage), [
      "x: Invalid value: 5: x in body should be less than 5",
    ]);
    assert.deepEqual(check(checkNumber, "x", 2.5, s), []);
  });

  it("counts characters, not UTF-16 units, for maxLength", () => {
    assert.deepEqual(check(checkString, "s", "😀😀", { maxLength: 2 }), []);
    assert.equal(check(checkString, "s", "😀😀😀", { maxLength: 2 }).length, 1);
  });

  it("treats an invalid pattern as non-matching instead of throwing", () => {
    assert.equal(check(checkString, "s", "a", { pattern: "(" }).length, 1);
  });

  it("reports property counts", () => {
    assert.deepEqual(
      check(checkPropertyCount, "m", { a: 1, b: 2 }, { maxProperties: 1 }).map(fieldErrorMessage),
      ["m: Too many: 2: must have at most 1 items"],
    );
    assert.deepEqual(
      check(checkPropertyCount, "m", {}, { minProperties: 1 }).map(fieldErrorMessage),
      ['m: Invalid value: "object": m in body should have at least 1 properties'],
    );
  });

  it("renders the path only for an error", () => {
    let rendered = 0;
    const path = () => {
      rendered++;
      return "spec.s";
    };
    const errors: FieldError[] = [];
    checkString(errors, path, "short", { maxLength: 10, format: "date-time" });
    assert.equal(rendered, 1);
    assert.deepEqual(errors.map(fieldErrorMessage), [
      'spec.s: Invalid value: "short": spec.s in body must be of type date-time: "short"',
    ]);
    checkString(errors, path, "ok", { maxLength: 10, minLength: 1, pattern: "^o" });
    checkRequired(errors, path, { a: 1 }, { required: ["a"] });
    assert.equal(rendered, 1);
    checkRequired(errors, path, {}, { required: ["a"] });
    assert.equal(fieldErrorMessage(errors[1]!), "spec.s.a: Required value");
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
