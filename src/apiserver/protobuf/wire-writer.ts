/**
 * The protobuf wire format, write side: a message is built as a list of
 * already-encoded fields, so nested messages need no length pre-pass. Proto3
 * rules: default values (empty string, false, 0) are not written.
 */

const utf8 = new TextEncoder();

function varint(value: number, out: number[]): void {
  let v = value;
  while (v > 0x7f) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

export class MessageWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(part: Uint8Array): void {
    this.parts.push(part);
    this.size += part.length;
  }

  private key(field: number, wire: number): void {
    const out: number[] = [];
    varint(field * 8 + wire, out);
    this.push(Uint8Array.from(out));
  }

  /** A length-delimited field (wire type 2). */
  bytes(field: number, payload: Uint8Array): this {
    this.key(field, 2);
    const len: number[] = [];
    varint(payload.length, len);
    this.push(Uint8Array.from(len));
    this.push(payload);
    return this;
  }

  string(field: number, value: string | undefined): this {
    if (value !== undefined && value !== "") this.bytes(field, utf8.encode(value));
    return this;
  }

  strings(field: number, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.bytes(field, utf8.encode(v));
    return this;
  }

  bool(field: number, value: boolean | undefined): this {
    if (value === true) {
      this.key(field, 0);
      this.push(Uint8Array.of(1));
    }
    return this;
  }

  /** A non-negative integer (int64 counts and lengths); negatives are not written. */
  uint(field: number, value: number | undefined): this {
    if (value !== undefined && value > 0 && Number.isSafeInteger(value)) {
      this.key(field, 0);
      const out: number[] = [];
      varint(value, out);
      this.push(Uint8Array.from(out));
    }
    return this;
  }

  double(field: number, value: number | undefined): this {
    if (value !== undefined && value !== 0) {
      this.key(field, 1);
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, value, true);
      this.push(b);
    }
    return this;
  }

  /** An embedded message; written even when empty (its presence matters). */
  message(field: number, m: MessageWriter | undefined): this {
    if (m !== undefined) this.bytes(field, m.finish());
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}
