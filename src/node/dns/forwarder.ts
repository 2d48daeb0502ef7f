/**
 * Forwarding of the queries the cluster zone does not answer to the host's
 * resolvers (the nameservers of its resolv.conf, loopback ones included: the
 * server runs on the host, where they answer), one after the other, each
 * with a deadline, the query's bytes as the pod sent them: the reply keeps
 * the pod's id and flags. Over UDP; a truncated reply to a client that came
 * over TCP is asked again over TCP. Nothing answers → undefined (SERVFAIL).
 */
import { createSocket } from "node:dgram";
import { connect } from "node:net";

export interface Upstream {
  address: string;
  port: number;
}

export interface ForwardOptions {
  /** Per upstream, ms (default 2000, as CoreDNS's forward plugin's dial+read budget). */
  timeoutMs?: number;
}

const TC_BIT = 0x02;

function overUdp(query: Buffer, up: Upstream, timeoutMs: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket("udp4");
    const done = (reply: Buffer | undefined) => {
      clearTimeout(timer);
      socket.close();
      resolve(reply);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.on("error", () => done(undefined));
    socket.on("message", (msg) => {
      // Only the reply to this query (same id): a late answer to another is dropped.
      if (msg.length >= 2 && msg.readUInt16BE(0) === query.readUInt16BE(0)) done(msg);
    });
    socket.send(query, up.port, up.address, (e) => {
      if (e) done(undefined);
    });
  });
}

function overTcp(query: Buffer, up: Upstream, timeoutMs: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: up.address, port: up.port });
    let data = Buffer.alloc(0);
    const done = (reply: Buffer | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.on("error", () => done(undefined));
    socket.on("connect", () => {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(query.length);
      socket.write(Buffer.concat([len, query]));
    });
    socket.on("data", (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0))
        done(data.subarray(2, 2 + data.readUInt16BE(0)));
    });
    socket.on("close", () => done(undefined));
  });
}

/** The first upstream's reply to `query`; undefined if none answers in time. */
export async function forwardQuery(
  query: Buffer,
  upstreams: readonly Upstream[],
  tcp: boolean,
  o: ForwardOptions = {},
): Promise<Buffer | undefined> {
  const timeoutMs = o.timeoutMs ?? 2000;
  for (const up of upstreams) {
    let reply = await overUdp(query, up, timeoutMs);
    if (reply && tcp && reply.length > 2 && (reply[2]! & TC_BIT) !== 0)
      reply = (await overTcp(query, up, timeoutMs)) ?? reply;
    if (reply) return reply;
  }
  return undefined;
}
