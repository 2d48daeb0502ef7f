/** decodeKubeProtobuf's envelope handling and its errors: magic, kinds, malformed bytes. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KUBECTL_VECTORS } from "../../../test/support/protobuf/kubectl-vectors.js";
import { bytes, envelope, lField } from "../../../test/support/protobuf/test-writer.js";
import { decodeKubeProtobuf, PROTOBUF_CONTENT_TYPE, ProtobufDecodeError } from "./index.js";

function fails(body: Buffer, code: ProtobufDecodeError["code"], message: string | RegExp): void {
  assert.throws(
    () => decodeKubeProtobuf(body),
    (e: unknown) => {
      assert.ok(e instanceof ProtobufDecodeError, `expected ProtobufDecodeError, got ${String(e)}`);
      assert.equal(e.code, code);
      if (typeof message === "string") assert.equal(e.message, message);
      else assert.match(e.message, message);
      return true;
    },
  );
}

describe("decodeKubeProtobuf", () => {
  it("names the content type", () => {
    assert.equal(PROTOBUF_CONTENT_TYPE, "application/vnd.kubernetes.protobuf");
  });

  it("takes apiVersion and kind from the envelope's TypeMeta", () => {
    const out = decodeKubeProtobuf(envelope("v1", "ConfigMap", lField(1, lField(1, "c"))));
    assert.deepEqual(out, {
      apiVersion: "v1",
      kind: "ConfigMap",
      object: {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "c", creationTimestamp: null },
      },
    });
  });

  it("decodes an envelope without raw as the empty object, ignoring contentType", () => {
    const typeMeta = lField(1, lField(1, "v1"), lField(2, "Namespace"));
    const body = Buffer.from(bytes([0x6b, 0x38, 0x73, 0], typeMeta, lField(4, "application/x")));
    assert.deepEqual(decodeKubeProtobuf(body).object, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { creationTimestamp: null },
      spec: {},
      status: {},
    });
  });

  it("rejects a body without the kube magic", () => {
    const message = 'protobuf body does not start with the kube magic "k8s\\x00"';
    fails(Buffer.from('{"kind":"ConfigMap"}'), "bad-magic", message);
    fails(Buffer.alloc(0), "bad-magic", message);
    fails(Buffer.from("k8s"), "bad-magic", message);
  });

  it("rejects kinds it does not decode, asking for JSON", () => {
    fails(
      envelope("networking.k8s.io/v1", "Ingress"),
      "unsupported-kind",
      'unsupported protobuf kind "Ingress"; send application/json',
    );
    fails(envelope("v1", "Node"), "unsupported-kind", /"Node"/);
    fails(envelope("v1", "Job"), "unsupported-kind", /"v1, Kind=Job"/);
    fails(envelope("batch/v1", "Service"), "unsupported-kind", /"batch\/v1, Kind=Service"/);
    fails(
      envelope("events.k8s.io/v1", "Event"),
      "unsupported-kind",
      'unsupported protobuf kind "events.k8s.io/v1, Kind=Event"; send application/json',
    );
    fails(envelope("v1", "Lease"), "unsupported-kind", /"v1, Kind=Lease"/);
    fails(envelope("v1beta1", "DeleteOptions"), "unsupported-kind", /DeleteOptions/);
  });

  it("rejects an envelope without a kind", () => {
    fails(
      Buffer.from("k8s\0", "latin1"),
      "malformed",
      "malformed protobuf body: the envelope has no kind",
    );
  });

  it("rejects truncated bodies", () => {
    const body = Buffer.from(KUBECTL_VECTORS[0]!.body, "base64");
    for (const cut of [5, 20, body.length - 10]) {
      fails(body.subarray(0, cut), "malformed", /^malformed protobuf body: /);
    }
  });

  it("rejects a malformed object message inside a valid envelope", () => {
    fails(envelope("v1", "Secret", [0x0a, 0x05, 0x0a]), "malformed", /truncated field/);
    fails(envelope("v1", "Secret", [0x0b]), "malformed", /wire type 3/);
  });
});
