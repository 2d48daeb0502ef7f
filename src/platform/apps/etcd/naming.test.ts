import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boundedName, CRONJOB_NAME_LIMIT, defragCronJobName } from "./naming.js";

describe("defragCronJobName", () => {
  it("is <cluster>-defrag while that fits 52 characters", () => {
    assert.equal(defragCronJobName("etcd"), "etcd-defrag");
    const longest = "a".repeat(CRONJOB_NAME_LIMIT - "-defrag".length);
    assert.equal(defragCronJobName(longest), `${longest}-defrag`);
  });

  it("cuts a longer name to 52 characters with a hash of the whole name", () => {
    const a = defragCronJobName("c".repeat(60));
    const b = defragCronJobName(`${"c".repeat(59)}d`);
    assert.equal(a.length, CRONJOB_NAME_LIMIT);
    assert.match(a, /^c{43}-[0-9a-f]{8}$/);
    assert.notEqual(a, b, "names that share their head still differ");
    assert.equal(defragCronJobName("c".repeat(60)), a, "the same cluster gets the same name");
  });
});

describe("boundedName", () => {
  it("does not leave a dash before the hash separator", () => {
    const name = boundedName(`${"x".repeat(10)}-${"y".repeat(20)}`, 20);
    assert.match(name, /^x{10}-[0-9a-f]{8}$/);
  });
});
