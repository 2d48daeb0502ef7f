/**
 * A DNS server under test in a worker thread (cluster-dns.ts starts it), on
 * 127.0.0.1 at a port the kernel picks: `hearth`, Hearth's DnsServer over a
 * zone of `services` ClusterIP Services (what `hearth up` answers pods
 * with, minus the informers that feed it), or `bare`, a UDP socket that
 * answers every query with one fixed A record, only the id copied in (the
 * floor: no decoding, no lookup). Posts `{type: "listening", port}`, and
 * `{type: "stopped"}` once the "stop" message closed it.
 */
import { createSocket } from "node:dgram";
import { parentPort, workerData } from "node:worker_threads";
import { encode } from "dns-packet";
import { buildZone, DnsServer } from "../src/node/index.js";

export interface DnsWorkerConfig {
  kind: "hearth" | "bare";
  services: number;
}

export type DnsWorkerMessage = { type: "listening"; port: number } | { type: "stopped" };

/** `svc-<i>` in namespace `bench`, ClusterIP 10.96.<i/250>.<i%250+1>. */
type Services = Parameters<typeof buildZone>[1];

export function benchServices(n: number): Services {
  return Array.from({ length: n }, (_, i) => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: `svc-${i}`, namespace: "bench" },
    spec: {
      clusterIP: `10.96.${Math.floor(i / 250)}.${(i % 250) + 1}`,
      ports: [{ name: "http", port: 80, protocol: "TCP" }],
    },
  })) as Services;
}

async function listen(cfg: DnsWorkerConfig): Promise<{ port: number; close(): Promise<void> }> {
  if (cfg.kind === "hearth") {
    const zone = buildZone("cluster.local", benchServices(cfg.services), []);
    const server = new DnsServer({ zone: () => zone });
    await server.listen("127.0.0.1", 0);
    return { port: server.port, close: () => server.close() };
  }
  const reply = encode({
    type: "response",
    id: 0,
    flags: 0,
    questions: [{ name: "svc-0.bench.svc.cluster.local", type: "A" }],
    answers: [{ name: "svc-0.bench.svc.cluster.local", type: "A", ttl: 5, data: "10.96.0.1" }],
  });
  const udp = createSocket("udp4");
  udp.on("message", (msg, from) => {
    if (msg.length < 2) return;
    const out = Buffer.from(reply);
    out[0] = msg[0]!;
    out[1] = msg[1]!;
    udp.send(out, from.port, from.address);
  });
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  return {
    port: udp.address().port,
    close: () => new Promise<void>((resolve) => udp.close(() => resolve())),
  };
}

if (parentPort) {
  const port = parentPort;
  const server = await listen(workerData as DnsWorkerConfig);
  port.postMessage({ type: "listening", port: server.port } satisfies DnsWorkerMessage);
  port.once("message", async () => {
    await server.close();
    port.postMessage({ type: "stopped" } satisfies DnsWorkerMessage);
    port.close();
  });
}
