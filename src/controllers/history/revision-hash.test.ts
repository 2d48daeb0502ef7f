import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { revisionHash, revisionName } from "./revision-hash.js";

describe("revisionHash", () => {
  it("is the same for equal data whatever the key order, and safe-encoded", () => {
    const a = revisionHash({ spec: { template: { a: 1, b: [1, 2] } } });
    const b = revisionHash({ spec: { template: { b: [1, 2], a: 1 } } });
    assert.equal(a, b);
    assert.match(a, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });

  it("differs for other data and for another collisionCount", () => {
    const data = { spec: { template: { a: 1 } } };
    assert.notEqual(revisionHash(data), revisionHash({ spec: { template: { a: 2 } } }));
    assert.notEqual(revisionHash(data), revisionHash(data, 1));
    assert.equal(revisionHash(data), revisionHash(data, 0));
  });

  it("names a revision <owner>-<hash>, cutting the owner to fit 253 characters", () => {
    assert.equal(revisionName("web", "abc"), "web-abc");
    assert.equal(revisionName("x".repeat(300), "abc").length, 253);
  });
});
