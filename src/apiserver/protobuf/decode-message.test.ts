/**
 * decodeMessage on hand-assembled wire bytes: unknown fields, repeated fields,
 * map entries, emit rules, FieldsV1, wrong wire types, and the shapes the
 * workload kinds add (inline messages, packed varints, null lists, quantities).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bytes, fixedField, lField, vField } from "../../../test/support/protobuf/test-writer.js";
import { ConfigMap, ServiceAccount } from "./core-messages.js";
import { decodeMessage } from "./decode-message.js";
import { ObjectMeta } from "./meta-messages.js";
import { always, inline, list, listOrNull, map, message, omitEmpty } from "./schema.js";
import { ProtobufDecodeError } from "./wire.js";

const entry = (key: string, value: string) => lField(11, lField(1, key), lField(2, value));

describe("decodeMessage", () => {
  it("skips unknown fields of every wire type", () => {
    const meta = bytes(
      lField(1, "a"),
      lField(16, "old-cluster-name"),
      vField(15, 7),
      fixedField(99, 4),
      fixedField(100, 8),
    );
    assert.deepEqual(decodeMessage(meta, ObjectMeta), { name: "a", creationTimestamp: null });
  });

  it("keeps the last of a repeated singular field and merges repeated messages", () => {
    const cm = bytes(
      lField(1, lField(1, "first"), entry("x", "1")),
      lField(1, lField(1, "second"), lField(3, "ns"), entry("y", "2")),
    );
    assert.deepEqual(decodeMessage(cm, ConfigMap), {
      metadata: {
        name: "second",
        namespace: "ns",
        creationTimestamp: null,
        labels: { x: "1", y: "2" },
      },
    });
  });

  it("keeps the last value of a repeated map key, sorts keys, and fills missing key/value", () => {
    const meta = bytes(
      entry("b", "1"),
      entry("a", "2"),
      entry("b", "3"),
      lField(11, lField(1, "nokey-value-missing")),
      lField(11, lField(2, "v")),
    );
    const labels = decodeMessage(meta, ObjectMeta).labels as Record<string, string>;
    assert.deepEqual(Object.keys(labels), ["", "a", "b", "nokey-value-missing"]);
    assert.deepEqual(labels, { "": "v", a: "2", b: "3", "nokey-value-missing": "" });
  });

  it('keeps a "__proto__" map key as a plain key', () => {
    const labels = decodeMessage(bytes(entry("__proto__", "x")), ObjectMeta).labels as object;
    assert.equal(Object.getPrototypeOf(labels), Object.prototype);
    assert.deepEqual(Object.keys(labels), ["__proto__"]);
    assert.equal(Object.getOwnPropertyDescriptor(labels, "__proto__")?.value, "x");
  });

  it("omits zero omitempty scalars but keeps zero pointers", () => {
    const meta = bytes(lField(1, ""), vField(7, 0), vField(10, 0));
    assert.deepEqual(decodeMessage(meta, ObjectMeta), {
      creationTimestamp: null,
      deletionGracePeriodSeconds: 0,
    });
  });

  it("reads any non-zero varint as true and keeps a false pointer bool", () => {
    assert.deepEqual(decodeMessage(bytes(vField(4, 2)), ServiceAccount), {
      metadata: { creationTimestamp: null },
      automountServiceAccountToken: true,
    });
    assert.equal(
      decodeMessage(bytes(vField(4, 0)), ServiceAccount).automountServiceAccountToken,
      false,
    );
  });

  it("renders FieldsV1 raw JSON as-is, null without Raw, and rejects non-JSON", () => {
    const managed = (...fieldsV1: number[][]) =>
      decodeMessage(bytes(lField(17, lField(1, "m"), lField(7, ...fieldsV1))), ObjectMeta)
        .managedFields;
    assert.deepEqual(managed([...lField(1, '{"f:a":{}}')]), [
      { manager: "m", fieldsV1: { "f:a": {} } },
    ]);
    assert.deepEqual(managed(), [{ manager: "m", fieldsV1: null }]);
    assert.throws(() => managed([...lField(1, "{not json")]), /fieldsV1 is not valid JSON/);
  });

  it("rejects a known field with the wrong wire type, naming it", () => {
    assert.throws(
      () => decodeMessage(bytes(vField(1, 5)), ObjectMeta),
      (e: unknown) =>
        e instanceof ProtobufDecodeError &&
        e.code === "malformed" &&
        /wrong wire type 0 for ObjectMeta\.name/.test(e.message),
    );
    assert.throws(() => decodeMessage(bytes(lField(4, "x")), ServiceAccount), /automount/);
    assert.throws(() => decodeMessage(bytes(vField(11, 1)), ObjectMeta), /labels/);
  });
});

describe("decodeMessage for the workload kinds' field shapes", () => {
  const Ref = message("Ref", [omitEmpty(1, "name", "string")]);
  const Source = message("Source", [inline(1, Ref), list(2, "items", "string")]);
  const Holder = message("Holder", [
    always(1, "kind", "string"),
    inline(2, Source),
    listOrNull(3, "codes", "int32"),
    map(4, "limits", "quantity"),
    always(5, "port", "intOrString"),
    always(6, "size", "quantity"),
  ]);

  it("spreads inline messages in place, rendering an absent one by its own rules", () => {
    const out = decodeMessage(
      bytes(lField(1, "K"), lField(2, lField(1, lField(1, "ref")))),
      Holder,
    );
    assert.deepEqual(Object.keys(out), ["kind", "name", "codes", "port", "size"]);
    assert.equal(out.name, "ref");
    assert.deepEqual(decodeMessage(bytes(), Holder), {
      kind: "",
      codes: null,
      port: 0,
      size: "0",
    });
  });

  it("reads repeated varints packed and unpacked, in wire order", () => {
    const packed = lField(3, [1, 0x96, 0x01, 3]);
    const out = decodeMessage(bytes(vField(3, 7), packed, vField(3, -2)), Holder);
    assert.deepEqual(out.codes, [7, 1, 150, 3, -2]);
    assert.deepEqual(decodeMessage(bytes(lField(3)), Holder).codes, null);
    assert.throws(() => decodeMessage(bytes(lField(3, [0x80])), Holder), /truncated varint/);
  });

  it("decodes quantity maps and scalar messages, merging repeated ones", () => {
    const limit = (k: string, v: string) => lField(4, lField(1, k), lField(2, lField(1, v)));
    const out = decodeMessage(
      bytes(
        limit("memory", "64Mi"),
        limit("cpu", "500m"),
        lField(4, lField(1, "gpu")),
        lField(5, vField(1, 1)),
        lField(5, lField(3, "http")),
      ),
      Holder,
    );
    assert.deepEqual(out.limits, { cpu: "500m", gpu: "0", memory: "64Mi" });
    assert.equal(out.port, "http");
  });

  it("names an inline field by its message in wire-type errors", () => {
    assert.throws(() => decodeMessage(bytes(vField(2, 1)), Holder), /for Holder\.Source/);
  });
});
