/**
 * The protobuf wire format, read-only: tags, varints, length-delimited and fixed
 * fields, and skipping what a schema does not know. Every read is bounds-checked
 * and malformed input throws a ProtobufDecodeError("malformed").
 */

/** Why a body could not be decoded: the lead maps these to 400 / 415. */
export type ProtobufErrorCode = "bad-magic" | "unsupported-kind" | "malformed";

export class ProtobufDecodeError extends Error {
  constructor(
    readonly code: ProtobufErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ProtobufDecodeError";
  }
}

export function malformed(detail: string): ProtobufDecodeError {
  return new ProtobufDecodeError("malformed", `malformed protobuf body: ${detail}`);
}

/** Wire types in use today; 3 and 4 (groups) are deprecated and rejected. */
export const WireType = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;
export type WireType = (typeof WireType)[keyof typeof WireType];

export interface Tag {
  field: number;
  wire: WireType;
}

const MAX_FIELD_NUMBER = 2 ** 29 - 1;

export class WireReader {
  private pos = 0;

  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  /** A varint as an unsigned 64-bit value (at most 10 bytes, as Go's decoder). */
  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.buf.length) throw malformed("truncated varint");
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    throw malformed("varint longer than 10 bytes");
  }

  /** A varint that must fit a JavaScript number (lengths, tags). */
  smallVarint(what: string): number {
    const v = this.varint();
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw malformed(`${what} too large`);
    return Number(v);
  }

  tag(): Tag {
    const key = this.smallVarint("tag");
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (field === 0 || field > MAX_FIELD_NUMBER) throw malformed(`illegal field number ${field}`);
    if (wire !== 0 && wire !== 1 && wire !== 2 && wire !== 5) {
      throw malformed(`unsupported wire type ${wire} for field ${field}`);
    }
    return { field, wire };
  }

  /** A length-delimited payload, as a view into the buffer. */
  bytes(): Uint8Array {
    const length = this.smallVarint("length");
    return this.take(length);
  }

  skip(wire: WireType): void {
    if (wire === WireType.varint) this.varint();
    else if (wire === WireType.fixed64) this.take(8);
    else if (wire === WireType.fixed32) this.take(4);
    else this.bytes();
  }

  private take(length: number): Uint8Array {
    if (length > this.buf.length - this.pos) throw malformed("truncated field");
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }
}

/** proto int32: the low 32 bits of the varint, signed (negatives are sign-extended). */
export function toInt32(v: bigint): number {
  return Number(BigInt.asIntN(32, v));
}

/** proto int64: the varint as signed 64 bits (beyond 2^53 precision is lost, as in JSON.parse). */
export function toInt64(v: bigint): number {
  return Number(BigInt.asIntN(64, v));
}

const utf8 = new TextDecoder("utf-8");

/** Invalid UTF-8 becomes U+FFFD, as Go's JSON encoder renders it. */
export function toText(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
