/**
 * kube's protobuf envelope: the 4-byte magic `k8s\0`, then a runtime.Unknown
 * {typeMeta=1 {apiVersion=1, kind=2}, raw=2, contentEncoding=3, contentType=4}
 * (k8s.io/apimachinery/pkg/runtime/generated.proto) whose `raw` is the object's
 * own message. contentEncoding and contentType are ignored, as kube's serializer does.
 */
import { decodeMessage } from "./decode-message.js";
import { always, message } from "./schema.js";
import { malformed, ProtobufDecodeError, WireReader, WireType } from "./wire.js";

export const KUBE_PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

const TypeMeta = message("TypeMeta", [
  always(1, "apiVersion", "string"),
  always(2, "kind", "string"),
]);

export interface Envelope {
  apiVersion: string;
  kind: string;
  /** The object's own protobuf message. */
  raw: Uint8Array;
}

export function readEnvelope(body: Uint8Array): Envelope {
  if (body.length < 4 || !KUBE_PROTOBUF_MAGIC.equals(body.subarray(0, 4))) {
    throw new ProtobufDecodeError(
      "bad-magic",
      'protobuf body does not start with the kube magic "k8s\\x00"',
    );
  }
  const env: Envelope = { apiVersion: "", kind: "", raw: new Uint8Array(0) };
  const r = new WireReader(body.subarray(4));
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field !== 1 && field !== 2) {
      r.skip(wire);
      continue;
    }
    if (wire !== WireType.bytes) throw malformed(`wrong wire type ${wire} in runtime.Unknown`);
    const bytes = r.bytes();
    if (field === 1) {
      const typeMeta = decodeMessage(bytes, TypeMeta);
      env.apiVersion = typeMeta.apiVersion as string;
      env.kind = typeMeta.kind as string;
    } else if (field === 2) {
      env.raw = bytes;
    }
  }
  if (env.kind === "") throw malformed("the envelope has no kind");
  return env;
}
