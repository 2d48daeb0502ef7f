/**
 * The two apimachinery messages whose JSON form is a scalar:
 * - resource.Quantity {string=1} (api/resource/generated.proto) renders as its
 *   string; apimachinery's Unmarshal parses it, so a malformed one is refused;
 * - intstr.IntOrString {type=1 int64, intVal=2 int32, strVal=3 string}
 *   (util/intstr/generated.proto) renders as intVal when type is 0 (Int), as
 *   strVal when 1 (String), as its MarshalJSON does.
 * Unknown fields are skipped and a repeated field keeps its last value.
 */
import { isQuantity } from "../../api/index.js";
import { malformed, toInt32, toInt64, toText, WireReader, WireType } from "./wire.js";

export function decodeQuantity(bytes: Uint8Array): string {
  let text = "";
  const r = new WireReader(bytes);
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field !== 1) r.skip(wire);
    else if (wire !== WireType.bytes) throw malformed(`wrong wire type ${wire} in Quantity`);
    else text = toText(r.bytes());
  }
  if (!isQuantity(text)) throw malformed(`quantity "${text}" does not parse`);
  return text;
}

export function decodeIntOrString(bytes: Uint8Array): number | string {
  let type = 0;
  let intVal = 0;
  let strVal = "";
  const r = new WireReader(bytes);
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field < 1 || field > 3) {
      r.skip(wire);
      continue;
    }
    const want = field === 3 ? WireType.bytes : WireType.varint;
    if (wire !== want) throw malformed(`wrong wire type ${wire} in IntOrString`);
    if (field === 1) type = toInt64(r.varint());
    else if (field === 2) intVal = toInt32(r.varint());
    else strVal = toText(r.bytes());
  }
  if (type === 0) return intVal;
  if (type === 1) return strVal;
  throw malformed(`IntOrString type ${type} is neither 0 (Int) nor 1 (String)`);
}
