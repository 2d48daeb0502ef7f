/** Kube's strict decoding message. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { strictDecodingMessage, unknownFieldWarnings } from "./strict-decoding.js";

describe("strictDecodingMessage", () => {
  it("matches kube-apiserver's text", () => {
    assert.equal(
      strictDecodingMessage("CronTab", "v1", ["spec.foo", "spec.bar"]),
      'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.foo", unknown field "spec.bar"',
    );
  });

  it("gives one warning per unknown field", () => {
    assert.deepEqual(unknownFieldWarnings(["a", "b.c"]), [
      'unknown field "a"',
      'unknown field "b.c"',
    ]);
  });
});
