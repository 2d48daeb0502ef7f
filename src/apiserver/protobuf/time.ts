/**
 * metav1.Time and metav1.MicroTime from their protobuf form, a Timestamp
 * {seconds=1 int64, nanos=2 int32}, to their JSON form, as apimachinery does:
 * an empty message is the zero time (JSON null); Time drops the nanos and renders
 * `2006-01-02T15:04:05Z`; MicroTime truncates to microseconds and renders
 * `2006-01-02T15:04:05.000000Z`.
 */
import { malformed, toInt32, WireReader, WireType } from "./wire.js";

interface Timestamp {
  seconds: bigint;
  nanos: number;
}

/** Go's zero time.Time (0001-01-01T00:00:00Z) in Unix seconds: rendered null too. */
const GO_ZERO_UNIX = -62135596800n;
/** The span a JavaScript Date can hold, in seconds. */
const MAX_ABS_SECONDS = 8_640_000_000_000n;

function readTimestamp(bytes: Uint8Array, what: string): Timestamp {
  const r = new WireReader(bytes);
  const ts: Timestamp = { seconds: 0n, nanos: 0 };
  while (!r.done) {
    const { field, wire } = r.tag();
    if (field !== 1 && field !== 2) {
      r.skip(wire);
      continue;
    }
    if (wire !== WireType.varint) throw malformed(`wrong wire type ${wire} in ${what}`);
    const v = r.varint();
    if (field === 1) ts.seconds = BigInt.asIntN(64, v);
    else ts.nanos = toInt32(v);
  }
  return ts;
}

/** A metav1.Time; null for the zero time. Nanos are ignored, as apimachinery's Unmarshal does. */
export function decodeTime(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return null;
  const { seconds } = readTimestamp(bytes, "Time");
  if (seconds === GO_ZERO_UNIX) return null;
  return formatUtc(seconds, undefined);
}

/** A metav1.MicroTime; null for the zero time. Nanos truncate toward zero to microseconds. */
export function decodeMicroTime(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return null;
  const { seconds, nanos } = readTimestamp(bytes, "MicroTime");
  const total = seconds * 1_000_000n + BigInt(Math.trunc(nanos / 1000));
  const micros = ((total % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const secs = (total - micros) / 1_000_000n;
  if (secs === GO_ZERO_UNIX && micros === 0n) return null;
  return formatUtc(secs, Number(micros));
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** RFC 3339 in UTC as Go's time.Format writes it (4-digit year, `-` before negative years). */
export function formatUtc(seconds: bigint, micros: number | undefined): string {
  if (seconds > MAX_ABS_SECONDS || seconds < -MAX_ABS_SECONDS) {
    throw malformed(`timestamp ${seconds} out of range`);
  }
  const d = new Date(Number(seconds) * 1000);
  const year = d.getUTCFullYear();
  const y = year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
  const date = `${y}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
  const clock = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  const fraction = micros === undefined ? "" : `.${pad(micros, 6)}`;
  return `${date}T${clock}${fraction}Z`;
}
