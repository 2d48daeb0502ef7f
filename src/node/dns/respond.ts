/**
 * A DNS message in, its reply out (dns-packet encodes and decodes): a query
 * for the cluster zone is answered from it (lookup.ts), authoritative, with
 * recursion available; any other name goes to the upstream resolvers, or is
 * REFUSED when there are none (and SERVFAIL when none answers). Refused or
 * malformed: anything but one QUERY question (FORMERR, NOTIMP). A UDP reply
 * larger than the client's buffer (512 bytes, or its EDNS payload size) goes
 * out truncated (TC, no records), for the client to ask again over TCP.
 */
import {
  type Answer,
  AUTHORITATIVE_ANSWER,
  type DecodedPacket,
  decode,
  encode,
  type Packet,
  RECURSION_AVAILABLE,
  RECURSION_DESIRED,
  TRUNCATED_RESPONSE,
} from "dns-packet";
import { type Lookup, lookup, type Rcode } from "./lookup.js";
import type { Zone } from "./zone.js";

const RCODES: Record<Rcode | "FORMERR" | "NOTIMP", number> = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
};

/** What a reply needs besides the zone. */
export interface Responder {
  /** The zone now; undefined until the caches have synced (in-zone queries get SERVFAIL). */
  zone(): Zone | undefined;
  /** The upstreams' reply to a raw query; undefined if none answered. Absent: no upstream (REFUSED). */
  forward?(query: Buffer, tcp: boolean): Promise<Buffer | undefined>;
}

/** The EDNS UDP payload size the query advertises (512 without OPT). */
function udpLimit(q: DecodedPacket): number {
  const opt = q.additionals?.find((a) => a.type === "OPT") as
    | { udpPayloadSize?: number }
    | undefined;
  return Math.max(512, Math.min(opt?.udpPayloadSize ?? 512, 65_535));
}

function reply(q: DecodedPacket, rcode: number, extra: Partial<Packet> = {}, aa = false): Packet {
  const hasOpt = q.additionals?.some((a) => a.type === "OPT");
  const opt: Answer[] = hasOpt
    ? [{ type: "OPT", name: ".", udpPayloadSize: 1232, extendedRcode: 0, flags: 0 } as Answer]
    : [];
  return {
    type: "response",
    id: q.id ?? 0,
    flags:
      (aa ? AUTHORITATIVE_ANSWER : 0) |
      (q.flag_rd ? RECURSION_DESIRED : 0) |
      RECURSION_AVAILABLE |
      rcode,
    questions: q.questions ?? [],
    answers: extra.answers ?? [],
    authorities: extra.authorities ?? [],
    additionals: [...(extra.additionals ?? []), ...opt],
  };
}

/** A FORMERR for bytes that did not decode, if at least their id did. */
function formErr(query: Buffer): Buffer | undefined {
  if (query.length < 12) return undefined;
  const out = Buffer.from(query.subarray(0, 12));
  out.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x7900) | RCODES.FORMERR, 2);
  out.fill(0, 4, 12);
  return out;
}

function encoded(p: Packet, q: DecodedPacket, tcp: boolean): Buffer {
  const out = encode(p);
  if (tcp || out.length <= udpLimit(q)) return out;
  return encode({
    ...p,
    flags: (p.flags ?? 0) | TRUNCATED_RESPONSE,
    answers: [],
    authorities: [],
    additionals: (p.additionals ?? []).filter((a) => a.type === "OPT"),
  });
}

/** The reply to one message; undefined for one to drop (a response, or bytes without a header). */
export async function respond(
  query: Buffer,
  r: Responder,
  tcp: boolean,
): Promise<Buffer | undefined> {
  let q: DecodedPacket;
  try {
    q = decode(query);
  } catch {
    return formErr(query);
  }
  if (q.flag_qr) return undefined;
  const opcode = (query.readUInt16BE(2) >> 11) & 0xf;
  if (opcode !== 0) return encoded(reply(q, RCODES.NOTIMP), q, tcp);
  const question = q.questions?.length === 1 ? q.questions[0] : undefined;
  if (!question) return encoded(reply(q, RCODES.FORMERR), q, tcp);
  const zone = r.zone();
  const found: Lookup = zone
    ? lookup(question.name, question.type, zone)
    : { rcode: "SERVFAIL", answers: [], authorities: [], additionals: [] };
  if (!found.forward)
    return encoded(reply(q, RCODES[found.rcode], found, found.rcode !== "SERVFAIL"), q, tcp);
  if (!r.forward) return encoded(reply(q, RCODES.REFUSED), q, tcp);
  const upstream = await r.forward(query, tcp);
  return upstream ?? encoded(reply(q, RCODES.SERVFAIL), q, tcp);
}
