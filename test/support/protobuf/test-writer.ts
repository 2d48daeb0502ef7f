/**
 * Test support: a tiny protobuf writer for hand-assembling wire bytes that no
 * well-behaved encoder would produce (unknown fields, repeats, bad wire types).
 */

export type Part = Uint8Array | number[];

export function varint(value: bigint | number): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v === 0n ? low : low | 0x80);
  } while (v !== 0n);
  return out;
}

export function bytes(...parts: Part[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

/** A varint field (wire type 0). */
export function vField(field: number, value: bigint | number): number[] {
  return [...varint(field * 8), ...varint(value)];
}

/** A length-delimited field (wire type 2) holding bytes, a string or nested parts. */
export function lField(field: number, ...content: (Part | string)[]): number[] {
  const body = bytes(
    ...content.map((c) => (typeof c === "string" ? [...Buffer.from(c, "utf8")] : c)),
  );
  return [...varint(field * 8 + 2), ...varint(body.length), ...body];
}

/** A fixed32 (wire type 5) or fixed64 (wire type 1) field of zeros. */
export function fixedField(field: number, size: 4 | 8): number[] {
  return [...varint(field * 8 + (size === 4 ? 5 : 1)), ...new Array<number>(size).fill(0)];
}

/** A full kube protobuf body: magic, then runtime.Unknown{typeMeta, raw}. */
export function envelope(apiVersion: string, kind: string, ...raw: Part[]): Buffer {
  const typeMeta = lField(1, lField(1, apiVersion), lField(2, kind));
  return Buffer.from(bytes([0x6b, 0x38, 0x73, 0x00], typeMeta, lField(2, ...raw)));
}
