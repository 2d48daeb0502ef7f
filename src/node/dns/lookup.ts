/**
 * One question answered from the cluster zone, as CoreDNS's kubernetes
 * plugin answers it: authoritative for `<domain>` (records, NODATA for a
 * name that exists without the asked type, NXDOMAIN for one that does not,
 * with the zone's SOA in the authority section either way), pods'
 * `a-b-c-d.<ns>.pod.<domain>` names (CoreDNS's `pods insecure`, kubeadm's
 * default), `dns-version.<domain>` TXT, PTR for the zone's reverse names; a
 * CNAME whose target is in the zone is followed. Everything else (other
 * names, reverse names of addresses the zone does not know, as CoreDNS's
 * `fallthrough in-addr.arpa`) is for the upstream resolvers: `forward`.
 */
import type { Answer, RecordType } from "dns-packet";
import { isIPv4, type Zone, type ZoneRecord } from "./zone.js";

/** CoreDNS's default TTL of the kubernetes plugin. */
export const TTL = 5;
/** The schema version of the kube-dns specification this follows. */
export const DNS_SCHEMA_VERSION = "1.1.0";

export type Rcode = "NOERROR" | "NXDOMAIN" | "SERVFAIL" | "REFUSED";

export type Lookup =
  | { forward: true }
  | {
      forward?: false;
      rcode: Rcode;
      answers: Answer[];
      authorities: Answer[];
      additionals: Answer[];
    };

export function soaOf(zone: Zone, name = zone.domain): Answer {
  return {
    type: "SOA",
    name,
    ttl: TTL,
    data: {
      mname: `ns.dns.${zone.domain}`,
      rname: `hostmaster.${zone.domain}`,
      serial: 1,
      refresh: 7200,
      retry: 1800,
      expire: 86400,
      minimum: TTL,
    },
  };
}

function answerOf(name: string, r: ZoneRecord): Answer {
  return { name, type: r.type, ttl: TTL, data: r.data } as Answer;
}

const empty = (rcode: Rcode, zone: Zone, soaName?: string): Lookup => ({
  rcode,
  answers: [],
  authorities: [soaOf(zone, soaName)],
  additionals: [],
});

/** `10-88-0-5.<ns>.pod.<domain>` → 10.88.0.5. */
function podAddress(name: string, zone: Zone): string | undefined {
  const suffix = `.pod.${zone.domain}`;
  if (!name.endsWith(suffix)) return undefined;
  const labels = name.slice(0, -suffix.length).split(".");
  if (labels.length !== 2) return undefined;
  const ip = labels[0]!.replaceAll("-", ".");
  return isIPv4(ip) ? ip : undefined;
}

/** The records of `name` in the zone (none: undefined), with SRV targets' addresses. */
function inZone(name: string, type: RecordType | "ANY", zone: Zone, depth = 0): Lookup {
  if (name === zone.domain) {
    if (type === "SOA" || type === "ANY")
      return { rcode: "NOERROR", answers: [soaOf(zone)], authorities: [], additionals: [] };
    if (type === "NS")
      return {
        rcode: "NOERROR",
        answers: [{ name, type: "NS", ttl: TTL, data: `ns.dns.${zone.domain}` }],
        authorities: [],
        additionals: [],
      };
    return empty("NOERROR", zone);
  }
  if (name === `dns-version.${zone.domain}`)
    return type === "TXT" || type === "ANY"
      ? {
          rcode: "NOERROR",
          answers: [{ name, type: "TXT", ttl: TTL, data: DNS_SCHEMA_VERSION }],
          authorities: [],
          additionals: [],
        }
      : empty("NOERROR", zone);
  const pod = podAddress(name, zone);
  if (pod)
    return type === "A" || type === "ANY"
      ? {
          rcode: "NOERROR",
          answers: [{ name, type: "A", ttl: TTL, data: pod }],
          authorities: [],
          additionals: [],
        }
      : empty("NOERROR", zone);
  const records = zone.records.get(name);
  if (!records) return empty(zone.names.has(name) ? "NOERROR" : "NXDOMAIN", zone);
  const cname = records.find((r) => r.type === "CNAME");
  if (cname && type !== "CNAME") {
    const answers = [answerOf(name, cname)];
    const target = cname.data as string;
    if (depth < 8 && target.endsWith(`.${zone.domain}`)) {
      const next = inZone(target, type, zone, depth + 1);
      if (!next.forward) return { ...next, answers: [...answers, ...next.answers] };
    }
    return { rcode: "NOERROR", answers, authorities: [], additionals: [] };
  }
  const matching = records.filter((r) => type === "ANY" || r.type === type);
  if (matching.length === 0) return empty("NOERROR", zone);
  const additionals = matching.flatMap((r) =>
    r.type === "SRV"
      ? (zone.records.get(r.data.target) ?? [])
          .filter((t) => t.type === "A")
          .map((t) => answerOf(r.data.target, t))
      : [],
  );
  return {
    rcode: "NOERROR",
    answers: matching.map((r) => answerOf(name, r)),
    authorities: [],
    additionals,
  };
}

/** The answer to one question, or `forward` when the zone does not hold its name. */
export function lookup(qname: string, type: RecordType | "ANY", zone: Zone): Lookup {
  const name = qname.toLowerCase().replace(/\.$/, "");
  if (name === zone.domain || name.endsWith(`.${zone.domain}`)) return inZone(name, type, zone);
  if (name.endsWith(".in-addr.arpa")) {
    const target = zone.ptr.get(name);
    if (target === undefined) return { forward: true };
    if (type !== "PTR" && type !== "ANY") return empty("NOERROR", zone);
    return {
      rcode: "NOERROR",
      answers: [{ name, type: "PTR", ttl: TTL, data: target }],
      authorities: [],
      additionals: [],
    };
  }
  return { forward: true };
}
