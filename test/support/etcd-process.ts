/**
 * Runs the real `/usr/bin/etcd` for tests: one member (alone, or of a cluster
 * whose members the caller starts) on a random loopback
 * address (127.10–99.x.y, away from the pod and service ranges, so parallel
 * tests never clash on a port), its data in a temp dir, optionally with TLS
 * and client-certificate auth (a CA, a server certificate for the address and
 * a client certificate with CN root, made with src/pki). `startEtcd` returns
 * once etcd answers `/health`; `stop()` ends it and removes its directory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCA, issueLeaf, type KeyPair } from "../../src/pki/index.js";
import { waitFor } from "./hearth-process.js";

export const ETCD_BIN = "/usr/bin/etcd";
export const ETCDCTL_BIN = "/usr/bin/etcdctl";

export interface EtcdTls {
  caFile: string;
  certFile: string;
  keyFile: string;
  caPem: string;
  /** The CA's key, to issue more client certificates (an etcd user is its certificate's CN). */
  caKeyPem: string;
  certPem: string;
  keyPem: string;
}

export interface EtcdProcess {
  /** Client URL, `http://ip:2379` or `https://ip:2379`. */
  endpoint: string;
  /** The loopback address it listens on. */
  address: string;
  pid: number;
  dataDir: string;
  /** CA and root client certificate (files in dataDir and PEM) when started with TLS. */
  tls?: EtcdTls;
  /** Runs etcdctl against this etcd (as root when TLS). */
  etcdctlArgs(): string[];
  /** SIGTERM, wait for exit, remove the data dir. */
  stop(): Promise<void>;
  /** SIGKILL by pid (the data dir stays until stop()). */
  kill(): Promise<void>;
}

export function randomLoopback(): string {
  const n = () => 1 + Math.floor(Math.random() * 250);
  return `127.${10 + Math.floor(Math.random() * 90)}.${n()}.${n()}`;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once("exit", () => r()));
}

function healthy(endpoint: string, tls?: EtcdTls): Promise<boolean> {
  return new Promise((resolve) => {
    const url = `${endpoint}/health`;
    const done = (ok: boolean) => resolve(ok);
    const req = tls
      ? httpsRequest(url, { ca: tls.caPem, cert: tls.certPem, key: tls.keyPem, timeout: 2000 })
      : httpRequest(url, { timeout: 2000 });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => done(res.statusCode === 200 && body.includes('"true"')));
    });
    req.on("error", () => done(false));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

async function makeTls(dir: string, ip: string, given?: KeyPair): Promise<EtcdTls> {
  const ca = given ?? (await createCA("etcd-test-ca"));
  const server = await issueLeaf(ca, {
    commonName: "etcd",
    ipAddresses: [ip],
    dnsNames: ["localhost"],
    usage: ["server", "client"],
  });
  const client = await issueLeaf(ca, { commonName: "root", usage: ["client"] });
  const files = {
    caFile: join(dir, "ca.crt"),
    certFile: join(dir, "client.crt"),
    keyFile: join(dir, "client.key"),
  };
  writeFileSync(files.caFile, ca.certPem);
  writeFileSync(files.certFile, client.certPem);
  writeFileSync(files.keyFile, client.keyPem, { mode: 0o600 });
  writeFileSync(join(dir, "server.crt"), server.certPem);
  writeFileSync(join(dir, "server.key"), server.keyPem, { mode: 0o600 });
  return {
    ...files,
    caPem: ca.certPem,
    caKeyPem: ca.keyPem,
    certPem: client.certPem,
    keyPem: client.keyPem,
  };
}

/** Starts a one-member etcd and waits until it answers. */
export async function startEtcd(
  opts: {
    tls?: boolean;
    /** A directory the caller owns (and removes); with `address`, a restart on the same data. */
    dir?: string;
    /** The loopback address to listen on (a restarted member keeps its URLs). */
    address?: string;
    /** The CA to issue the TLS certificates from (members of one cluster share it). */
    ca?: KeyPair;
    /** A member of a cluster: its name and `--initial-cluster` (peers on http://ip:2380). */
    member?: { name: string; initialCluster: string };
    timeoutMs?: number;
  } = {},
): Promise<EtcdProcess> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), "hearth-etcd-"));
  const ip = opts.address ?? randomLoopback();
  const scheme = opts.tls ? "https" : "http";
  const endpoint = `${scheme}://${ip}:2379`;
  const peer = `http://${ip}:2380`;
  const tls = opts.tls ? await makeTls(dir, ip, opts.ca) : undefined;
  const name = opts.member?.name ?? "test";
  const args = [
    `--name=${name}`,
    `--data-dir=${join(dir, "data")}`,
    `--listen-client-urls=${endpoint}`,
    `--advertise-client-urls=${endpoint}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=${opts.member?.initialCluster ?? `${name}=${peer}`}`,
    "--initial-cluster-state=new",
    "--log-level=error",
    "--logger=zap",
    ...(tls
      ? [
          "--client-cert-auth",
          `--trusted-ca-file=${tls.caFile}`,
          `--cert-file=${join(dir, "server.crt")}`,
          `--key-file=${join(dir, "server.key")}`,
        ]
      : []),
  ];
  const child = spawn(ETCD_BIN, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const spawnError = new Promise<Error>((r) => child.once("error", r));
  const pid = child.pid;
  if (pid === undefined) {
    if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    throw await spawnError;
  }
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(pid, "SIGKILL");
    await exited(child);
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(pid, "SIGTERM");
    const timer = setTimeout(() => void kill(), 10_000);
    await exited(child);
    clearTimeout(timer);
    if (!opts.dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      `etcd at ${endpoint}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`etcd exited: ${stderr}`);
        return healthy(endpoint, tls);
      },
      opts.timeoutMs ?? 20_000,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    endpoint,
    address: ip,
    pid,
    dataDir: dir,
    ...(tls ? { tls } : {}),
    etcdctlArgs: () => [
      `--endpoints=${endpoint}`,
      ...(tls ? [`--cacert=${tls.caFile}`, `--cert=${tls.certFile}`, `--key=${tls.keyFile}`] : []),
    ],
    stop,
    kill,
  };
}
