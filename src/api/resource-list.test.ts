/** Resource lists: kube's canonical quantity form and the quota arithmetic on lists. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { QuantityError } from "./quantity.js";
import {
  addLists,
  canonicalList,
  canonicalQuantity,
  exceededNames,
  isZeroList,
  listsEqual,
  maskList,
  maxInto,
  negativeNames,
  prettyPrint,
  subtractLists,
} from "./resource-list.js";

describe("canonicalQuantity", () => {
  it("writes decimal quantities with exponents in steps of three", () => {
    const cases: [string, string][] = [
      ["1000m", "1"],
      ["1500m", "1500m"],
      ["0.5", "500m"],
      ["2000", "2k"],
      ["128974848", "128974848"],
      ["1k", "1k"],
      ["1E", "1E"],
      ["0", "0"],
      ["-2", "-2"],
      ["0.000000001", "1n"],
    ];
    for (const [input, want] of cases) assert.equal(canonicalQuantity(input), want, input);
  });

  it("keeps binary quantities binary only for whole multiples of 1024", () => {
    assert.equal(canonicalQuantity("1024Mi"), "1Gi");
    assert.equal(canonicalQuantity("1536Mi"), "1536Mi");
    assert.equal(canonicalQuantity("0.5Gi"), "512Mi");
    assert.equal(canonicalQuantity("1.5Gi"), "1536Mi");
    assert.equal(canonicalQuantity("0.5Ki"), "512");
  });

  it("keeps exponent notation", () => {
    assert.equal(canonicalQuantity("1e3"), "1e3");
    assert.equal(canonicalQuantity("129e6"), "129e6");
    assert.equal(canonicalQuantity("1E3"), "1e3");
  });

  it("reads numbers and refuses what is not a quantity", () => {
    assert.equal(canonicalQuantity(3), "3");
    assert.throws(() => canonicalQuantity("lots"), QuantityError);
    assert.deepEqual(canonicalList({ cpu: "1000m", memory: "lots" }), {
      cpu: "1",
      memory: "lots",
    });
  });
});

describe("list arithmetic", () => {
  it("adds in the format of the first non-zero term", () => {
    assert.deepEqual(addLists({ cpu: "500m" }, { cpu: "500m" }), { cpu: "1" });
    assert.deepEqual(addLists({ memory: "1Gi" }, { memory: "512Mi" }), { memory: "1536Mi" });
    assert.deepEqual(addLists({ memory: "0" }, { memory: "128Mi" }), { memory: "128Mi" });
    assert.deepEqual(addLists({ pods: "1" }, { cpu: "2" }), { pods: "1", cpu: "2" });
  });

  it("subtracts, negating names only the second list has, or clamping at zero", () => {
    assert.deepEqual(subtractLists({ a: "1" }, { a: "2", b: "3" }), { a: "-1", b: "-3" });
    assert.deepEqual(subtractLists({ a: "5Gi" }, { a: "1Gi" }, true), { a: "4Gi" });
    assert.deepEqual(subtractLists({ a: "1" }, { a: "2", b: "3" }, true), { a: "0", b: "0" });
  });

  it("masks, keeps maxima, compares and prints", () => {
    assert.deepEqual(maskList({ cpu: "1", pods: "2" }, ["pods", "memory"]), { pods: "2" });
    const into = { cpu: "1" };
    maxInto(into, { cpu: "1500m", memory: "1Gi" });
    assert.deepEqual(into, { cpu: "1500m", memory: "1Gi" });
    assert.deepEqual(exceededNames({ pods: "3", cpu: "1" }, { pods: "2", cpu: "1" }), ["pods"]);
    assert.deepEqual(exceededNames({ pods: "3" }, { cpu: "1" }), []);
    assert.equal(isZeroList({ a: "0", b: "0m" }), true);
    assert.equal(isZeroList({ a: "1m" }), false);
    assert.deepEqual(negativeNames({ b: "-1", a: "-2", c: "1" }), ["a", "b"]);
    assert.equal(listsEqual({ cpu: "1" }, { cpu: "1000m" }), true);
    assert.equal(listsEqual({ cpu: "1" }, { cpu: "1", pods: "0" }), false);
    assert.equal(prettyPrint({ "requests.cpu": "1000m", pods: 2 }), "pods=2,requests.cpu=1");
  });
});
