/**
 * The by-hand baseline of the etcd bootstrap benchmark: three real etcd
 * processes started directly (no API, no pods), each on its own loopback
 * address with the same TLS as the operator's members — client and peer
 * certificates from two fresh CAs, client-certificate checks on both sides —
 * timed until every member's `/health` on its metrics port says true.
 * test/support/etcd-process.ts starts a single member; a 3-member cluster with
 * peer TLS is this file's job.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCA, issueLeaf } from "../src/pki/index.js";
import { ETCD_BIN } from "../test/support/etcd-process.js";
import { waitFor } from "../test/support/hearth-process.js";

export interface Trio {
  stop(): Promise<void>;
}

function loopbackBase(): string {
  const n = () => 1 + Math.floor(Math.random() * 250);
  return `127.${10 + Math.floor(Math.random() * 90)}.${n()}`;
}

async function healthy(ip: string): Promise<boolean> {
  try {
    const res = await fetch(`http://${ip}:2381/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok && /"health":\s*"true"/.test(await res.text());
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once("exit", () => r()));
}

/** Issues the certificates and starts three members; resolves once all three are healthy. */
export async function startTrio(deadlineMs: number): Promise<Trio> {
  const dir = mkdtempSync(join(tmpdir(), "hearth-bench-trio-"));
  const base = loopbackBase();
  const ips = [1, 2, 3].map((i) => `${base}.${i}`);
  const names = ips.map((_ip, i) => `m${i}`);
  const [clientCa, peerCa] = await Promise.all([createCA("trio-ca"), createCA("trio-peer-ca")]);
  const leaf = (ca: typeof clientCa) =>
    issueLeaf(ca, { commonName: "trio", ipAddresses: ips, usage: ["server", "client"] });
  const [server, peer] = await Promise.all([leaf(clientCa), leaf(peerCa)]);
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text, { mode: 0o600 });
    return join(dir, name);
  };
  const f = {
    ca: file("ca.crt", clientCa.certPem),
    cert: file("server.crt", server.certPem),
    key: file("server.key", server.keyPem),
    peerCa: file("peer-ca.crt", peerCa.certPem),
    peerCert: file("peer.crt", peer.certPem),
    peerKey: file("peer.key", peer.keyPem),
  };
  const initial = ips.map((ip, i) => `${names[i]}=https://${ip}:2380`).join(",");
  const children = ips.map((ip, i) =>
    spawn(
      ETCD_BIN,
      [
        `--name=${names[i]}`,
        `--data-dir=${join(dir, names[i]!)}`,
        `--listen-client-urls=https://${ip}:2379`,
        `--advertise-client-urls=https://${ip}:2379`,
        `--listen-peer-urls=https://${ip}:2380`,
        `--initial-advertise-peer-urls=https://${ip}:2380`,
        `--listen-metrics-urls=http://${ip}:2381`,
        `--initial-cluster=${initial}`,
        "--initial-cluster-state=new",
        "--initial-cluster-token=trio",
        `--cert-file=${f.cert}`,
        `--key-file=${f.key}`,
        `--trusted-ca-file=${f.ca}`,
        "--client-cert-auth",
        `--peer-cert-file=${f.peerCert}`,
        `--peer-key-file=${f.peerKey}`,
        `--peer-trusted-ca-file=${f.peerCa}`,
        "--peer-client-cert-auth",
        // As the operator runs it: a peer's connection comes from 127.0.0.1, not its address.
        "--experimental-peer-skip-client-san-verification",
        "--log-level=error",
        "--logger=zap",
      ],
      { stdio: "ignore" },
    ),
  );
  const stop = async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await Promise.all(children.map(exited));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      "three etcd members started by hand healthy",
      async () => (await Promise.all(ips.map(healthy))).every(Boolean),
      deadlineMs,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return { stop };
}
