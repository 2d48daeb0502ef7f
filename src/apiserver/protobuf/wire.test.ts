/** WireReader: varints, tags, length-delimited fields, skipping, and malformed input. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  bytes,
  fixedField,
  lField,
  varint,
  vField,
} from "../../../test/support/protobuf/test-writer.js";
import { ProtobufDecodeError, toInt32, toInt64, toText, WireReader, WireType } from "./wire.js";

function malformed(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ProtobufDecodeError);
    assert.equal(e.code, "malformed");
    assert.match(e.message, pattern);
    return true;
  });
}

describe("WireReader", () => {
  it("reads varints of 1 to 10 bytes", () => {
    for (const v of [0n, 1n, 127n, 128n, 300n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n]) {
      assert.equal(new WireReader(Uint8Array.from(varint(v))).varint(), v);
    }
    assert.deepEqual(varint(300), [0xac, 0x02]);
  });

  it("reads int32 and int64 with sign extension, as Go does", () => {
    const minusOne = new WireReader(Uint8Array.from(varint(-1))).varint();
    assert.equal(varint(-1).length, 10);
    assert.equal(toInt32(minusOne), -1);
    assert.equal(toInt64(minusOne), -1);
    assert.equal(toInt32(2n ** 31n), -(2 ** 31));
    assert.equal(toInt32(2n ** 32n + 5n), 5);
    assert.equal(toInt64(2n ** 53n), 2 ** 53);
  });

  it("reads tags, length-delimited fields, and skips every wire type", () => {
    const r = new WireReader(
      bytes(vField(1, 5), fixedField(2, 8), lField(3, "abc"), fixedField(4, 4), vField(5, 7)),
    );
    assert.deepEqual(r.tag(), { field: 1, wire: WireType.varint });
    r.skip(WireType.varint);
    for (const [field, wire] of [
      [2, WireType.fixed64],
      [3, WireType.bytes],
      [4, WireType.fixed32],
    ] as const) {
      assert.deepEqual(r.tag(), { field, wire });
      r.skip(wire);
    }
    assert.deepEqual(r.tag(), { field: 5, wire: WireType.varint });
    assert.equal(r.varint(), 7n);
    assert.equal(r.done, true);
  });

  it("returns length-delimited payloads as views", () => {
    const r = new WireReader(bytes(lField(1, "héllo")));
    r.tag();
    assert.equal(toText(r.bytes()), "héllo");
  });

  it("renders invalid UTF-8 as U+FFFD, as Go's JSON encoder does", () => {
    assert.equal(toText(Uint8Array.from([0x61, 0xff, 0x62])), "a\ufffdb");
  });

  it("rejects truncated and malformed input", () => {
    malformed(() => new WireReader(Uint8Array.from([0x80])).varint(), /truncated varint/);
    malformed(
      () => new WireReader(Uint8Array.from(new Array(11).fill(0xff))).varint(),
      /longer than 10 bytes/,
    );
    malformed(() => new WireReader(Uint8Array.from([0x0a, 0x05, 0x61])).bytes(), /truncated/);
    const r = new WireReader(Uint8Array.from([0x0a, 0x05, 0x61]));
    r.tag();
    malformed(() => r.bytes(), /truncated field/);
    malformed(() => new WireReader(Uint8Array.from([0x02])).tag(), /illegal field number 0/);
    malformed(() => new WireReader(Uint8Array.from([0x0b])).tag(), /wire type 3/);
    malformed(() => new WireReader(Uint8Array.from([0x0e])).tag(), /wire type 6/);
    malformed(() => new WireReader(Uint8Array.from([0x0d, 0, 0])).skip(WireType.fixed32), /trunc/);
  });
});
