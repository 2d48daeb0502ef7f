/** Quantity parsing: suffixes, fractions, exponents, rounding, refusals and formatting. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  compareQuantities,
  formatBytes,
  isQuantity,
  parseQuantity,
  QUANTITY_FORMAT_MESSAGE,
  QuantityError,
  quantityMilliValue,
  quantityValue,
} from "./quantity.js";

describe("parseQuantity", () => {
  it("reads binary suffixes", () => {
    assert.equal(quantityValue("1Ki"), 1024n);
    assert.equal(quantityValue("1Mi"), 1024n ** 2n);
    assert.equal(quantityValue("10Gi"), 10n * 1024n ** 3n);
    assert.equal(quantityValue("2Ti"), 2n * 1024n ** 4n);
    assert.equal(quantityValue("1Pi"), 1024n ** 5n);
    assert.equal(quantityValue("3Ei"), 3n * 1024n ** 6n);
  });

  it("reads decimal suffixes and plain numbers", () => {
    assert.equal(quantityValue("5"), 5n);
    assert.equal(quantityValue("1k"), 1000n);
    assert.equal(quantityValue("1M"), 1_000_000n);
    assert.equal(quantityValue("2G"), 2_000_000_000n);
    assert.equal(quantityValue("1T"), 10n ** 12n);
    assert.equal(quantityValue("1P"), 10n ** 15n);
    assert.equal(quantityValue("1E"), 10n ** 18n);
    assert.equal(quantityMilliValue("100m"), 100n);
    assert.equal(parseQuantity("5u"), 5000n);
    assert.equal(parseQuantity("7n"), 7n);
  });

  it("reads fractions, signs, exponents and numbers", () => {
    assert.equal(quantityValue("1.5Gi"), 1536n * 1024n ** 2n);
    assert.equal(quantityMilliValue("0.5"), 500n);
    assert.equal(quantityMilliValue(".25"), 250n);
    assert.equal(quantityValue("3."), 3n);
    assert.equal(quantityValue("+2"), 2n);
    assert.equal(quantityValue("-2"), -2n);
    assert.equal(quantityValue("2e3"), 2000n);
    assert.equal(quantityValue("2E+3"), 2000n);
    assert.equal(quantityMilliValue("1e-3"), 1n);
    assert.equal(quantityValue(42), 42n);
  });

  it("rounds up below the unit, as kube does", () => {
    assert.equal(quantityValue("1500m"), 2n);
    assert.equal(quantityValue("1.1"), 2n);
    assert.equal(quantityMilliValue("1.0001"), 1001n);
    assert.equal(parseQuantity("0.1n"), 1n);
    assert.equal(quantityValue("-1.5"), -2n);
  });

  it("refuses what kube refuses, with kube's message", () => {
    for (const bad of ["", "abc", "1Gb", "Gi", "1 Gi", "1.2.3", "--1", "1e", "1ee2", ".", "1KiB"]) {
      assert.throws(
        () => parseQuantity(bad),
        (e: unknown) => e instanceof QuantityError && e.message === QUANTITY_FORMAT_MESSAGE,
        bad,
      );
      assert.equal(isQuantity(bad), false, bad);
    }
    assert.equal(isQuantity(undefined), false);
    assert.equal(isQuantity({}), false);
    assert.equal(isQuantity("1Gi"), true);
    assert.throws(() => parseQuantity("1e100000"), QuantityError);
  });
});

describe("compareQuantities", () => {
  it("compares across suffixes exactly", () => {
    assert.equal(compareQuantities("1Gi", "1073741824"), 0);
    assert.equal(compareQuantities("1G", "1Gi"), -1);
    assert.equal(compareQuantities("1024Mi", "1Gi"), 0);
    assert.equal(compareQuantities("2Gi", "1.5Gi"), 1);
    assert.equal(compareQuantities("1E", "1Ei"), -1);
  });
});

describe("formatBytes", () => {
  it("uses the largest exact binary suffix", () => {
    assert.equal(formatBytes(0n), "0");
    assert.equal(formatBytes(1024n ** 3n * 10n), "10Gi");
    assert.equal(formatBytes(1536n * 1024n), "1536Ki");
    assert.equal(formatBytes(1024n ** 3n * 99n), "99Gi");
    assert.equal(formatBytes(1500n), "1500");
    assert.equal(formatBytes(1024n ** 6n), "1Ei");
  });
});
