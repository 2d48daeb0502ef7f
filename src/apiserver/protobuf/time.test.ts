/** metav1.Time / MicroTime from protobuf Timestamps: zero values, truncation, formatting. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bytes, fixedField, vField } from "../../../test/support/protobuf/test-writer.js";
import { decodeMicroTime, decodeTime, formatUtc } from "./time.js";
import { ProtobufDecodeError } from "./wire.js";

const ts = (seconds: bigint | number, nanos?: number) =>
  bytes(vField(1, seconds), nanos === undefined ? [] : vField(2, nanos));

describe("decodeTime", () => {
  it("renders seconds as RFC 3339 and drops nanos, as apimachinery does", () => {
    assert.equal(decodeTime(ts(1700000000)), "2023-11-14T22:13:20Z");
    assert.equal(decodeTime(ts(1700000000, 999_999_999)), "2023-11-14T22:13:20Z");
  });

  it("is null for an empty message and for Go's zero time", () => {
    assert.equal(decodeTime(new Uint8Array(0)), null);
    assert.equal(decodeTime(ts(-62135596800n)), null);
  });

  it("renders an explicit 0 as the Unix epoch (only an empty message is zero)", () => {
    assert.equal(decodeTime(ts(0, 0)), "1970-01-01T00:00:00Z");
    assert.equal(decodeTime(ts(-1)), "1969-12-31T23:59:59Z");
  });

  it("skips unknown fields and rejects a wrong wire type", () => {
    assert.equal(decodeTime(bytes(fixedField(9, 8), vField(1, 60))), "1970-01-01T00:01:00Z");
    assert.throws(() => decodeTime(bytes(fixedField(1, 8))), ProtobufDecodeError);
  });
});

describe("decodeMicroTime", () => {
  it("truncates nanos to microseconds", () => {
    assert.equal(decodeMicroTime(ts(1700000000, 123_456_789)), "2023-11-14T22:13:20.123456Z");
    assert.equal(decodeMicroTime(ts(1700000000, 999)), "2023-11-14T22:13:20.000000Z");
    assert.equal(decodeMicroTime(ts(1700000000)), "2023-11-14T22:13:20.000000Z");
  });

  it("normalizes negative nanos after truncating toward zero, as Go's time.Unix", () => {
    assert.equal(decodeMicroTime(ts(10, -1500)), "1970-01-01T00:00:09.999999Z");
  });

  it("is null for an empty message and for Go's zero time", () => {
    assert.equal(decodeMicroTime(new Uint8Array(0)), null);
    assert.equal(decodeMicroTime(ts(-62135596800n, 999)), null);
    assert.equal(decodeMicroTime(ts(-62135596800n, 1000)), "0001-01-01T00:00:00.000001Z");
  });
});

describe("formatUtc", () => {
  it("pads years to four digits and signs negative ones, as Go's time.Format", () => {
    assert.equal(formatUtc(-62135596800n, undefined), "0001-01-01T00:00:00Z");
    assert.equal(formatUtc(-62167219200n, undefined), "0000-01-01T00:00:00Z");
    assert.equal(formatUtc(-62198755200n, undefined), "-0001-01-01T00:00:00Z");
    assert.equal(formatUtc(253402300800n, 5), "10000-01-01T00:00:00.000005Z");
  });

  it("rejects timestamps a Date cannot hold", () => {
    assert.throws(() => formatUtc(2n ** 62n, undefined), /out of range/);
  });
});
