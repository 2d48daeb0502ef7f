import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { intOrPercentValue, percentOf, scaledValue } from "./int-or-percent.js";

describe("int-or-percent", () => {
  it("scales percentages as GetScaledValueFromIntOrPercent, rounding as asked", () => {
    assert.equal(scaledValue("25%", 3, true), 1);
    assert.equal(scaledValue("25%", 3, false), 0);
    assert.equal(scaledValue("25%", 4, false), 1);
    assert.equal(scaledValue("25%", 10, true), 3);
    assert.equal(scaledValue("25%", 10, false), 2);
    assert.equal(scaledValue("100%", 7, false), 7);
    assert.equal(scaledValue(2, 100, true), 2);
    assert.throws(() => scaledValue("two", 4, true), /string is not a percentage/);
  });

  it("reads values as getIntOrPercentValue does", () => {
    assert.equal(percentOf("30%"), 30);
    assert.equal(percentOf("30"), undefined);
    assert.equal(percentOf("-1%"), undefined);
    assert.equal(intOrPercentValue("0%"), 0);
    assert.equal(intOrPercentValue("abc"), 0);
    assert.equal(intOrPercentValue("3"), 3);
    assert.equal(intOrPercentValue(5), 5);
    assert.equal(intOrPercentValue(undefined), 0);
  });
});
