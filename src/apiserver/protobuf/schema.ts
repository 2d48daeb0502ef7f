/**
 * Field tables for the protobuf messages we decode. Each field carries its
 * generated.proto number and type, and how Go's encoding/json renders the Go
 * field it fills, so the decoded object has kube's JSON shape:
 * - `omitEmpty`: non-pointer scalar with `omitempty` — dropped when zero or absent;
 * - `always`: rendered even when absent (scalars without `omitempty`, and every
 *   non-pointer struct, which Go never omits: `{}`, or null for a zero Time);
 * - `pointer`: a `*T` — rendered exactly when the field is on the wire;
 * - `omitZero`: a struct with `omitzero` — dropped when zero;
 * - `inline`: an embedded struct (`json:",inline"`), a nested message on the wire
 *   whose fields JSON spreads into the parent, rendered by their own rules;
 * - lists and maps with `omitempty`: dropped when empty; lists without it
 *   (`listOrNull`): null when empty, as Go renders a nil slice.
 */

/**
 * Wire scalars, the two metav1 timestamps, FieldsV1 (raw JSON bytes), the two
 * messages JSON renders as scalars (resource.Quantity, intstr.IntOrString), or a
 * nested message.
 */
export type ValueType =
  | "string"
  | "bytes"
  | "bool"
  | "int32"
  | "int64"
  | "time"
  | "microTime"
  | "fieldsV1"
  | "quantity"
  | "intOrString"
  | Message;

export type Emit = "omitEmpty" | "always" | "pointer" | "omitZero" | "inline";

export interface SingleField {
  shape: "single";
  no: number;
  json: string;
  type: ValueType;
  emit: Emit;
}

export interface ListField {
  shape: "list";
  no: number;
  json: string;
  type: ValueType;
  /** What an empty list renders as: dropped (`omitempty`) or null. */
  empty: "omit" | "null";
}

/** `map<string, V>`: repeated entry messages {key=1, value=2}. */
export interface MapField {
  shape: "map";
  no: number;
  json: string;
  type: MapValueType;
}

/** The map values in kube's APIs: strings, bytes, and quantities (a ResourceList). */
export type MapValueType = "string" | "bytes" | "quantity";

export type Field = SingleField | ListField | MapField;

export interface Message {
  /** The proto message name, for error messages. */
  name: string;
  /** In Go struct order, which is the JSON key order. */
  fields: readonly Field[];
  byNumber: ReadonlyMap<number, Field>;
}

export function message(name: string, fields: readonly Field[]): Message {
  const byNumber = new Map<number, Field>();
  for (const f of fields) {
    if (byNumber.has(f.no)) throw new Error(`${name}: duplicate field number ${f.no}`);
    byNumber.set(f.no, f);
  }
  return { name, fields, byNumber };
}

export function omitEmpty(no: number, json: string, type: ValueType): SingleField {
  return { shape: "single", no, json, type, emit: "omitEmpty" };
}

export function always(no: number, json: string, type: ValueType): SingleField {
  return { shape: "single", no, json, type, emit: "always" };
}

export function pointer(no: number, json: string, type: ValueType): SingleField {
  return { shape: "single", no, json, type, emit: "pointer" };
}

export function omitZero(no: number, json: string, type: ValueType): SingleField {
  return { shape: "single", no, json, type, emit: "omitZero" };
}

/** An embedded struct: its fields appear in the parent's JSON, in its place. */
export function inline(no: number, type: Message): SingleField {
  return { shape: "single", no, json: "", type, emit: "inline" };
}

export function list(no: number, json: string, type: ValueType): ListField {
  return { shape: "list", no, json, type, empty: "omit" };
}

export function listOrNull(no: number, json: string, type: ValueType): ListField {
  return { shape: "list", no, json, type, empty: "null" };
}

export function map(no: number, json: string, type: MapValueType): MapField {
  return { shape: "map", no, json, type };
}
