/**
 * Table-driven decoding of one protobuf message into its JSON shape: reads the
 * fields a Message table names (skipping unknown ones, as Go's decoder does),
 * then renders them in table order under the table's emit rules.
 * Repeated occurrences of a singular field: the last wins, and nested messages
 * merge (their bytes concatenate), per the protobuf spec. Repeated varints are
 * read packed or unpacked, as Go's generated decoders accept both.
 */
import { decodeIntOrString, decodeQuantity } from "./scalar-messages.js";
import type { Field, MapValueType, Message, ValueType } from "./schema.js";
import { always, message } from "./schema.js";
import { decodeMicroTime, decodeTime } from "./time.js";
import { malformed, toInt32, toInt64, toText, WireReader, WireType } from "./wire.js";

type Raw = bigint | Uint8Array;

const EMPTY = new Uint8Array(0);

function isVarint(type: ValueType): boolean {
  return type === "bool" || type === "int32" || type === "int64";
}

export function decodeMessage(bytes: Uint8Array, msg: Message): Record<string, unknown> {
  const seen = new Map<number, Raw[]>();
  const r = new WireReader(bytes);
  while (!r.done) {
    const { field, wire } = r.tag();
    const spec = msg.byNumber.get(field);
    if (spec === undefined) {
      r.skip(wire);
      continue;
    }
    const varint = spec.shape !== "map" && isVarint(spec.type);
    const packed = varint && spec.shape === "list" && wire === WireType.bytes;
    if (wire !== (varint && !packed ? WireType.varint : WireType.bytes)) {
      throw malformed(`wrong wire type ${wire} for ${msg.name}.${fieldName(spec)}`);
    }
    const values = seen.get(field) ?? [];
    seen.set(field, values);
    if (packed) values.push(...readPacked(r.bytes()));
    else values.push(wire === WireType.varint ? r.varint() : r.bytes());
  }
  const out: Record<string, unknown> = {};
  for (const spec of msg.fields) {
    const raws = seen.get(spec.no) ?? [];
    const value = render(spec, raws, msg);
    if (spec.shape === "single" && spec.emit === "inline") Object.assign(out, value);
    else if (value !== undefined) out[spec.json] = value;
  }
  return out;
}

/** The JSON name, or for an inline field the message it embeds. */
function fieldName(spec: Field): string {
  return spec.json || (typeof spec.type === "string" ? "" : spec.type.name);
}

function readPacked(bytes: Uint8Array): bigint[] {
  const r = new WireReader(bytes);
  const values: bigint[] = [];
  while (!r.done) values.push(r.varint());
  return values;
}

/** The JSON value of one field, or undefined when Go's encoder would omit it. */
function render(spec: Field, raws: Raw[], msg: Message): unknown {
  if (spec.shape === "list") {
    if (raws.length === 0) return spec.empty === "null" ? null : undefined;
    return raws.map((raw) => convert(raw, spec.type, msg, spec));
  }
  if (spec.shape === "map") {
    return raws.length === 0 ? undefined : decodeMap(raws, spec.type, msg, spec);
  }
  if (raws.length === 0) {
    return spec.emit === "always" || spec.emit === "inline" ? zeroValue(spec.type) : undefined;
  }
  const value = isMessageLike(spec.type)
    ? convert(concat(raws), spec.type, msg, spec)
    : convert(raws[raws.length - 1]!, spec.type, msg, spec);
  if (spec.emit === "omitEmpty" && (value === "" || value === 0 || value === false)) {
    return undefined;
  }
  if (spec.emit === "omitZero" && value === null) return undefined;
  return value;
}

function isMessageLike(type: ValueType): boolean {
  return (
    typeof type !== "string" || type === "fieldsV1" || type === "quantity" || type === "intOrString"
  );
}

function concat(chunks: Raw[]): Uint8Array {
  const parts = chunks.filter((c): c is Uint8Array => c instanceof Uint8Array);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function zeroValue(type: ValueType): unknown {
  if (typeof type !== "string") return decodeMessage(EMPTY, type);
  switch (type) {
    case "string":
    case "bytes":
      return "";
    case "bool":
      return false;
    case "int32":
    case "int64":
    case "intOrString":
      return 0;
    case "quantity":
      return "0";
    default:
      return null;
  }
}

function convert(raw: Raw, type: ValueType, msg: Message, spec: Field): unknown {
  if (typeof raw === "bigint") {
    if (type === "bool") return raw !== 0n;
    if (type === "int32") return toInt32(raw);
    return toInt64(raw);
  }
  if (typeof type !== "string") return decodeMessage(raw, type);
  switch (type) {
    case "string":
      return toText(raw);
    case "bytes":
      return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64");
    case "time":
      return decodeTime(raw);
    case "microTime":
      return decodeMicroTime(raw);
    case "fieldsV1":
      return decodeFieldsV1(raw);
    case "quantity":
      return decodeQuantity(raw);
    case "intOrString":
      return decodeIntOrString(raw);
    default:
      throw malformed(`varint field ${msg.name}.${spec.json} got bytes`);
  }
}

const entryTables: Record<MapValueType, Message> = {
  string: message("StringMapEntry", [always(1, "key", "string"), always(2, "value", "string")]),
  bytes: message("BytesMapEntry", [always(1, "key", "string"), always(2, "value", "bytes")]),
  quantity: message("QuantityMapEntry", [
    always(1, "key", "string"),
    always(2, "value", "quantity"),
  ]),
};

/** `map<string, V>` from its entry messages; a repeated key keeps the last value. Keys sorted, as Go. */
function decodeMap(
  raws: Raw[],
  type: MapValueType,
  msg: Message,
  spec: Field,
): Record<string, unknown> {
  const entries = new Map<string, unknown>();
  for (const raw of raws) {
    if (!(raw instanceof Uint8Array)) throw malformed(`bad map entry in ${msg.name}.${spec.json}`);
    const entry = decodeMessage(raw, entryTables[type]);
    entries.set(entry.key as string, entry.value);
  }
  const keys = [...entries.keys()].sort();
  // fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return Object.fromEntries(keys.map((k) => [k, entries.get(k)]));
}

/** metav1.FieldsV1 {Raw bytes = 1}: the raw bytes are JSON, rendered as-is; no Raw is null. */
function decodeFieldsV1(bytes: Uint8Array): unknown {
  let raw: Uint8Array | undefined;
  const r = new WireReader(bytes);
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field !== 1) {
      r.skip(wire);
      continue;
    }
    if (wire !== WireType.bytes) throw malformed(`wrong wire type ${wire} for FieldsV1.Raw`);
    raw = r.bytes();
  }
  if (raw === undefined) return null;
  try {
    return JSON.parse(toText(raw));
  } catch {
    throw malformed("managedFields fieldsV1 is not valid JSON");
  }
}
