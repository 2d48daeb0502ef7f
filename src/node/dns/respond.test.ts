import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { type Answer, decode, encode, type Packet, RECURSION_DESIRED } from "dns-packet";
import { DnsServer } from "./dns-server.js";
import { forwardQuery } from "./forwarder.js";
import { respond } from "./respond.js";
import { buildZone, type Zone } from "./zone.js";

const zone: Zone = buildZone(
  "cluster.local",
  [
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { namespace: "default", name: "web" },
      spec: { clusterIP: "10.96.0.20" },
    },
  ],
  [],
);

const query = (name: string, type: "A" | "SRV" | "PTR" | "TXT" = "A", extra: Packet = {}) =>
  encode({
    type: "query",
    id: 4242,
    flags: RECURSION_DESIRED,
    questions: [{ name, type, class: "IN" }],
    ...extra,
  });

/** The data of the first answer, if any. */
const firstData = (p: Packet) => (p.answers?.[0] as { data?: unknown } | undefined)?.data;
const rcodeOf = (buf: Buffer) => buf.readUInt16BE(2) & 0xf;
/** dns-packet decodes the rcode too, but its types do not say so. */
const rcodeName = (p: object) => (p as { rcode?: string }).rcode;

describe("respond", () => {
  test("an in-zone answer is authoritative, keeps the id and RD, and offers recursion", async () => {
    const out = decode(
      (await respond(query("web.default.svc.cluster.local"), { zone: () => zone }, false))!,
    );
    assert.equal(out.id, 4242);
    assert.equal(out.flag_aa, true);
    assert.equal(out.flag_rd, true);
    assert.equal(out.flag_ra, true);
    assert.equal(rcodeName(out), "NOERROR");
    assert.deepEqual(
      out.answers?.map((a) => [
        a.name,
        a.type,
        (a as { data: unknown }).data,
        (a as { ttl: number }).ttl,
      ]),
      [["web.default.svc.cluster.local", "A", "10.96.0.20", 5]],
    );
  });

  test("NXDOMAIN carries the SOA; before the first zone, SERVFAIL", async () => {
    const nx = decode(
      (await respond(query("nope.default.svc.cluster.local"), { zone: () => zone }, false))!,
    );
    assert.equal(rcodeName(nx), "NXDOMAIN");
    assert.equal(nx.authorities?.[0]?.type, "SOA");
    const early = await respond(
      query("web.default.svc.cluster.local"),
      { zone: () => undefined },
      false,
    );
    assert.equal(rcodeOf(early!), 2);
  });

  test("other names: REFUSED without upstreams, SERVFAIL when none answers, else the upstream's reply", async () => {
    const q = query("example.org");
    assert.equal(rcodeOf((await respond(q, { zone: () => zone }, false))!), 5);
    const dead = { zone: () => zone, forward: async () => undefined };
    assert.equal(rcodeOf((await respond(q, dead, false))!), 2);
    const relayed = Buffer.from("upstream");
    const up = {
      zone: () => zone,
      forward: async (b: Buffer) => (b.equals(q) ? relayed : undefined),
    };
    assert.equal(await respond(q, up, false), relayed);
  });

  test("malformed messages: FORMERR when the header reads, nothing when it does not; responses dropped", async () => {
    const r = { zone: () => zone };
    const garbage = Buffer.concat([
      query("web.default.svc.cluster.local").subarray(0, 12),
      Buffer.from([0xff]),
    ]);
    const err = await respond(garbage, r, false);
    assert.equal(err?.readUInt16BE(0), 4242);
    assert.equal(rcodeOf(err!), 1);
    assert.equal(await respond(Buffer.from([1, 2, 3]), r, false), undefined);
    const answer = encode({ type: "response", id: 1, questions: [{ name: "x", type: "A" }] });
    assert.equal(await respond(answer, r, false), undefined);
    const two = encode({
      type: "query",
      id: 7,
      questions: [
        { name: "a", type: "A" },
        { name: "b", type: "A" },
      ],
    });
    assert.equal(rcodeOf((await respond(two, r, false))!), 1);
  });

  test("an answer over 512 bytes goes out truncated over UDP, whole over TCP and with EDNS", async () => {
    const many = buildZone(
      "cluster.local",
      [
        {
          apiVersion: "v1",
          kind: "Service",
          metadata: { namespace: "d", name: "h" },
          spec: { clusterIP: "None" },
        },
      ],
      [
        {
          apiVersion: "discovery.k8s.io/v1",
          kind: "EndpointSlice",
          metadata: { namespace: "d", name: "h-1", labels: { "kubernetes.io/service-name": "h" } },
          addressType: "IPv4",
          endpoints: Array.from({ length: 60 }, (_, i) => ({ addresses: [`10.88.1.${i + 1}`] })),
        },
      ],
    );
    const r = { zone: () => many };
    const udp = decode((await respond(query("h.d.svc.cluster.local"), r, false))!);
    assert.equal(udp.flag_tc, true);
    assert.equal(udp.answers?.length, 0);
    const tcp = decode((await respond(query("h.d.svc.cluster.local"), r, true))!);
    assert.equal(tcp.answers?.length, 60);
    const opt = { type: "OPT", name: ".", udpPayloadSize: 4096 } as Answer;
    const edns = decode(
      (await respond(query("h.d.svc.cluster.local", "A", { additionals: [opt] }), r, false))!,
    );
    assert.equal(edns.flag_tc, false);
    assert.equal(edns.answers?.length, 60);
  });
});

describe("DnsServer and the forwarder", () => {
  // An upstream on loopback answering every A question with 192.0.2.1.
  const upstream = new DnsServer({
    zone: () => buildZone("upstream.test", [], []),
    forward: async (q) => {
      const p = decode(q);
      return encode({
        type: "response",
        id: p.id ?? 0,
        questions: p.questions ?? [],
        answers: [{ name: p.questions?.[0]?.name ?? "", type: "A", ttl: 60, data: "192.0.2.1" }],
      });
    },
  });
  const server = new DnsServer({
    zone: () => zone,
    forward: (q, tcp) =>
      forwardQuery(q, [{ address: "127.0.0.1", port: upstream.port }], tcp, { timeoutMs: 1000 }),
  });
  before(async () => {
    await upstream.listen("127.0.0.1", 0);
    await server.listen("127.0.0.1", 0);
  });
  after(async () => {
    await server.close();
    await upstream.close();
  });

  const overUdp = (msg: Buffer) =>
    new Promise<Buffer>((resolve) => {
      const s = createSocket("udp4");
      s.on("message", (m) => {
        s.close();
        resolve(m);
      });
      s.send(msg, server.port, "127.0.0.1");
    });

  const overTcp = (msgs: Buffer[]) =>
    new Promise<Buffer[]>((resolve, reject) => {
      const c = connect({ host: "127.0.0.1", port: server.port });
      const out: Buffer[] = [];
      let data = Buffer.alloc(0);
      c.on("error", reject);
      c.on("connect", () => {
        for (const m of msgs) {
          const len = Buffer.alloc(2);
          len.writeUInt16BE(m.length);
          c.write(Buffer.concat([len, m]));
        }
      });
      c.on("data", (chunk) => {
        data = Buffer.concat([data, chunk]);
        while (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0)) {
          out.push(data.subarray(2, 2 + data.readUInt16BE(0)));
          data = data.subarray(2 + data.readUInt16BE(0));
        }
        if (out.length === msgs.length) {
          c.destroy();
          resolve(out);
        }
      });
    });

  test("answers over UDP, in the zone and forwarded", async () => {
    const inZone = decode(await overUdp(query("web.default.svc.cluster.local")));
    assert.equal(firstData(inZone), "10.96.0.20");
    const forwarded = decode(await overUdp(query("example.org")));
    assert.equal(forwarded.id, 4242);
    assert.equal(firstData(forwarded), "192.0.2.1");
  });

  test("answers several queries on one TCP connection", async () => {
    const replies = (
      await overTcp([query("web.default.svc.cluster.local"), query("example.org")])
    ).map((b) => decode(b));
    assert.deepEqual(replies.map((r) => firstData(r)).sort(), ["10.96.0.20", "192.0.2.1"]);
  });

  test("an upstream that does not answer in time gives SERVFAIL", async () => {
    const silent = createSocket("udp4");
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    try {
      const q = query("example.org");
      const out = await forwardQuery(
        q,
        [{ address: "127.0.0.1", port: silent.address().port }],
        false,
        {
          timeoutMs: 100,
        },
      );
      assert.equal(out, undefined);
    } finally {
      silent.close();
    }
  });
});
