/**
 * clusterDns: queries/s and latency of Hearth's cluster DNS server (the
 * DnsServer of src/node/dns over a zone of `services` Services, in a worker
 * thread) from `clients` concurrent UDP clients on the main thread, each
 * closed-loop (one query in flight: the next goes when the reply came),
 * asking A of a different Service's FQDN each time (queries encoded once,
 * replies checked from their header, so the client costs little); beside the floor, a bare
 * UDP responder in Node answering one fixed record, under the same load.
 * A query unanswered within `timeoutMs` counts as lost and is sent again.
 */
import { createSocket } from "node:dgram";
import { Worker } from "node:worker_threads";
import { encode, RECURSION_DESIRED } from "dns-packet";
import type { DnsWorkerConfig, DnsWorkerMessage } from "../dns-worker.js";
import { type LatencySummary, round, summarize } from "../stats.js";

export interface ClusterDnsPlan {
  clients: number;
  services: number;
  warmupMs: number;
  durationMs: number;
  timeoutMs: number;
}

export interface DnsLoadResult {
  queriesPerSec: number;
  latencyMs: LatencySummary;
  lost: number;
  /** Replies that were not NOERROR with one A answer. */
  wrong: number;
}

export interface ClusterDnsResult {
  clients: number;
  services: number;
  durationS: number;
  hearth: DnsLoadResult;
  bare: DnsLoadResult;
  hearthToBare: number;
}

async function startWorker(cfg: DnsWorkerConfig): Promise<{ port: number; stop(): Promise<void> }> {
  const worker = new Worker(new URL("../dns-worker.js", import.meta.url), { workerData: cfg });
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  const next = () =>
    new Promise<DnsWorkerMessage>((resolve, reject) => {
      worker.once("error", reject);
      worker.once("message", resolve);
    });
  const first = await next();
  if (first.type !== "listening") throw new Error(`dns worker: ${JSON.stringify(first)}`);
  return {
    port: first.port,
    stop: async () => {
      worker.postMessage("stop");
      const timer = setTimeout(() => void worker.terminate(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One closed-loop client until `until`; latencies recorded from `from` on. */
function client(
  port: number,
  plan: ClusterDnsPlan,
  queries: Buffer[],
  id: number,
  from: number,
  until: number,
  samples: number[],
): Promise<{ lost: number; wrong: number }> {
  return new Promise((resolve) => {
    const socket = createSocket("udp4");
    let seq = 0;
    let sentAt = 0;
    let lost = 0;
    let wrong = 0;
    let timer: NodeJS.Timeout | undefined;
    const send = () => {
      const now = performance.now();
      clearTimeout(timer);
      if (now >= until) {
        socket.close();
        resolve({ lost, wrong });
        return;
      }
      seq = (seq + 1) & 0xffff;
      const q = Buffer.from(queries[(id * 7919 + seq) % queries.length]!);
      q.writeUInt16BE(seq, 0);
      sentAt = now;
      timer = setTimeout(() => {
        if (sentAt >= from) lost++;
        send();
      }, plan.timeoutMs);
      socket.send(q, port, "127.0.0.1");
    };
    socket.on("message", (msg) => {
      if (msg.readUInt16BE(0) !== seq) return;
      const now = performance.now();
      if (sentAt >= from) {
        samples.push(now - sentAt);
        // RCODE (low 4 bits of byte 3) NOERROR and ANCOUNT 1, read off the header.
        if ((msg[3]! & 0xf) !== 0 || msg.readUInt16BE(6) !== 1) wrong++;
      }
      send();
    });
    socket.bind(0, "127.0.0.1", send);
  });
}

/** A of each Service's FQDN, encoded once (the client only sets the id). */
function queriesOf(services: number): Buffer[] {
  return Array.from({ length: services }, (_, i) =>
    encode({
      type: "query",
      id: 0,
      flags: RECURSION_DESIRED,
      questions: [{ name: `svc-${i}.bench.svc.cluster.local`, type: "A" }],
    }),
  );
}

async function load(port: number, plan: ClusterDnsPlan): Promise<DnsLoadResult> {
  const queries = queriesOf(plan.services);
  const from = performance.now() + plan.warmupMs;
  const until = from + plan.durationMs;
  const samples: number[] = [];
  const counts = await Promise.all(
    Array.from({ length: plan.clients }, (_, i) =>
      client(port, plan, queries, i, from, until, samples),
    ),
  );
  return {
    queriesPerSec: round(samples.length / (plan.durationMs / 1000), 1),
    latencyMs: summarize(samples),
    lost: counts.reduce((n, c) => n + c.lost, 0),
    wrong: counts.reduce((n, c) => n + c.wrong, 0),
  };
}

async function measure(kind: DnsWorkerConfig["kind"], plan: ClusterDnsPlan) {
  const server = await startWorker({ kind, services: plan.services });
  try {
    return await load(server.port, plan);
  } finally {
    await server.stop();
  }
}

export async function clusterDns(plan: ClusterDnsPlan): Promise<ClusterDnsResult> {
  const bare = await measure("bare", plan);
  const hearth = await measure("hearth", plan);
  return {
    clients: plan.clients,
    services: plan.services,
    durationS: plan.durationMs / 1000,
    hearth,
    bare,
    hearthToBare: round(hearth.queriesPerSec / bare.queriesPerSec, 3),
  };
}

export function clusterDnsLines(r: ClusterDnsResult): string[] {
  const row = (what: string, l: DnsLoadResult) =>
    `  ${what.padEnd(34)} ${l.queriesPerSec.toFixed(0).padStart(8)} ${l.latencyMs.p50.toFixed(3).padStart(8)} ${l.latencyMs.p99.toFixed(3).padStart(8)} ${String(l.lost).padStart(5)} ${String(l.wrong).padStart(5)}`;
  return [
    `clusterDns: ${r.clients} UDP clients, ${r.durationS} s, ${r.services} Services   q/s   p50 ms   p99 ms  lost wrong`,
    row("Hearth's DNS server", r.hearth),
    row("bare UDP responder (floor)", r.bare),
    `  hearth/bare = ${r.hearthToBare}`,
  ];
}
