/**
 * decodeKubeProtobuf on real kubectl v1.32 request bodies (must equal the JSON kubectl
 * builds for the same command) and on hand-built bodies for the fields kubectl's
 * create commands leave unset.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HAND_VECTORS } from "../../../test/support/protobuf/hand-vectors.js";
import { KUBECTL_SINK_VECTORS } from "../../../test/support/protobuf/kubectl-sink-vectors.js";
import { KUBECTL_VECTORS } from "../../../test/support/protobuf/kubectl-vectors.js";
import { KUBECTL_WORKLOAD_VECTORS } from "../../../test/support/protobuf/kubectl-workload-vectors.js";
import { decodeKubeProtobuf } from "./index.js";

/** The decoded object as JSON text, `kind` first as kubectl prints it. */
function asKubectlText(body: string): string {
  const { kind, apiVersion, ...rest } = decodeKubeProtobuf(Buffer.from(body, "base64")).object;
  return JSON.stringify({ kind, apiVersion, ...rest });
}

describe("decodeKubeProtobuf on kubectl's request bodies", () => {
  for (const v of [...KUBECTL_VECTORS, ...KUBECTL_WORKLOAD_VECTORS]) {
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

  it("renders Service, Job and CronJob keys in Go's order", () => {
    for (const v of KUBECTL_WORKLOAD_VECTORS) {
      assert.equal(asKubectlText(v.body), JSON.stringify(v.json), v.command);
    }
  });
});

describe("decodeKubeProtobuf on a Job carrying every PodSpec and JobSpec field", () => {
  for (const v of KUBECTL_SINK_VECTORS) {
    it(v.command, () => {
      assert.deepEqual(JSON.parse(asKubectlText(v.body)), JSON.parse(v.dryRun));
      assert.equal(asKubectlText(v.body), v.dryRun);
    });
  }

  it("covers the inline sources, quantities, IntOrStrings and null lists", () => {
    const [full, zero] = KUBECTL_SINK_VECTORS.map((v) => v.dryRun);
    // VolumeSource inline in Volume, LocalObjectReference inline in a configMap source.
    assert.match(full!, /"volumes":\[\{"name":"name-v","hostPath":/);
    assert.match(full!, /"configMap":\{"name":"name-v","items":/);
    assert.match(full!, /"resources":\{"limits":\{"limits-k":"250m"\}/);
    assert.match(full!, /"port":"port-port"/);
    assert.match(zero!, /"divisor":"0"/);
    assert.match(zero!, /"rbd":\{"monitors":null,"image":""/);
    assert.match(zero!, /"onExitCodes":\{"containerName":"","operator":"","values":null\}/);
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
