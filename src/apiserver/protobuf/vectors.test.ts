/**
 * decodeKubeProtobuf on real kubectl v1.32 request bodies (must equal the JSON kubectl
 * builds for the same command) and on hand-built bodies for the fields kubectl's
 * create commands leave unset.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HAND_VECTORS } from "./hand-vectors.js";
import { decodeKubeProtobuf } from "./index.js";
import { KUBECTL_VECTORS } from "./kubectl-vectors.js";

describe("decodeKubeProtobuf on kubectl's request bodies", () => {
  for (const v of KUBECTL_VECTORS) {
    it(v.command, () => {
      const decoded = decodeKubeProtobuf(Buffer.from(v.body, "base64"));
      assert.deepEqual(decoded.object, v.json);
      assert.equal(decoded.apiVersion, v.json.apiVersion);
      assert.equal(decoded.kind, v.json.kind);
    });
  }

  it("serializes to the same JSON text up to key order", () => {
    for (const v of KUBECTL_VECTORS) {
      const { object } = decodeKubeProtobuf(Buffer.from(v.body, "base64"));
      assert.deepEqual(JSON.parse(JSON.stringify(object)), v.json);
    }
  });
});

describe("decodeKubeProtobuf on hand-built bodies", () => {
  for (const v of HAND_VECTORS) {
    it(v.name, () => {
      const decoded = decodeKubeProtobuf(Buffer.from(v.body, "base64"));
      assert.deepEqual(decoded.object, v.json);
      assert.equal(decoded.apiVersion, v.json.apiVersion);
      assert.equal(decoded.kind, v.json.kind);
    });
  }
});
