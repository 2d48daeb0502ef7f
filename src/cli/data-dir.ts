/**
 * The data directory of `hearth up`: the PKI (CA, serving certificate, admin
 * token, ServiceAccount token signing key) created on first start and reused
 * after, and the admin kubeconfig. Several processes may start on one data
 * directory at once (`hearth up` and `hearth apiserver`s sharing DIR/pki), and
 * any of them may be killed at any moment: what is missing is created under a
 * lock (`pki/.init.lock`, proper-lockfile: a directory made atomically, taken
 * over once its holder has not refreshed it for 10 s), so exactly one CA comes
 * to be; each file is written to a temporary name and renamed, so a reader never
 * sees half a file.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { createCA, issueLeaf, type KeyPair } from "../pki/index.js";

/** The common name of the apiserver's client certificate to node agents; agents let it in. */
export const NODE_CLIENT_USER = "hearth-apiserver-kubelet-client";

export interface ServerPki {
  ca: KeyPair;
  serving: KeyPair;
  /** The apiserver's client certificate to node agents (kube's `--kubelet-client-certificate`). */
  nodeClient: KeyPair;
  adminToken: string;
  /** PKCS#8 PEM of the ECDSA P-256 key that signs ServiceAccount tokens (`sa.key`; `sa.pub` beside it). */
  serviceAccountKeyPem: string;
}

function readPair(dir: string, name: string): KeyPair | undefined {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  if (!existsSync(cert) || !existsSync(key)) return undefined;
  return { certPem: readFileSync(cert, "utf8"), keyPem: readFileSync(key, "utf8") };
}

/** Writes `file` whole or not at all: a synced temporary file renamed over it. */
function writeAtomic(file: string, content: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", mode);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** The key first: a key without its certificate (a kill in between) is made again as a pair. */
function writePair(dir: string, name: string, pair: KeyPair): void {
  writeAtomic(join(dir, `${name}.key`), pair.keyPem, 0o600);
  writeAtomic(join(dir, `${name}.crt`), pair.certPem, 0o644);
}

const PKI_FILES = [
  "ca.crt",
  "ca.key",
  "apiserver.crt",
  "apiserver.key",
  "apiserver-kubelet-client.crt",
  "apiserver-kubelet-client.key",
  "admin.token",
  "sa.key",
];

/** How long a lock may go unrefreshed before another process takes it over (its holder died). */
const LOCK_STALE_MS = 10_000;

/** Loads `DIR/pki`, creating what is missing (under the lock, unless nothing is). */
export async function ensurePki(
  dataDir: string,
  hosts: { dns: string[]; ips: string[] },
): Promise<ServerPki> {
  const dir = join(dataDir, "pki");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (PKI_FILES.every((f) => existsSync(join(dir, f)))) return loadOrCreate(dir, hosts);
  const release = await lockfile.lock(dir, {
    lockfilePath: join(dir, ".init.lock"),
    stale: LOCK_STALE_MS,
    // Waits up to about a minute: longer than a stale lock takes to expire.
    retries: { retries: 300, minTimeout: 50, maxTimeout: 200 },
  });
  try {
    // Half-written files of a process killed here before: no one else writes now.
    for (const f of readdirSync(dir)) if (f.endsWith(".tmp")) rmSync(join(dir, f), { force: true });
    return await loadOrCreate(dir, hosts);
  } finally {
    await release();
  }
}

async function loadOrCreate(
  dir: string,
  hosts: { dns: string[]; ips: string[] },
): Promise<ServerPki> {
  let ca = readPair(dir, "ca");
  if (!ca) {
    ca = await createCA("hearth-ca");
    writePair(dir, "ca", ca);
  }
  let serving = readPair(dir, "apiserver");
  if (!serving) {
    serving = await issueLeaf(ca, {
      commonName: "hearth-apiserver",
      dnsNames: hosts.dns,
      ipAddresses: hosts.ips,
      usage: ["server"],
    });
    writePair(dir, "apiserver", serving);
  }
  let nodeClient = readPair(dir, "apiserver-kubelet-client");
  if (!nodeClient) {
    nodeClient = await issueLeaf(ca, {
      commonName: NODE_CLIENT_USER,
      organization: ["system:masters"],
      usage: ["client"],
    });
    writePair(dir, "apiserver-kubelet-client", nodeClient);
  }
  const tokenFile = join(dir, "admin.token");
  if (!existsSync(tokenFile)) writeAtomic(tokenFile, `${randomBytes(32).toString("hex")}\n`, 0o600);
  const adminToken = readFileSync(tokenFile, "utf8").trim();
  return {
    ca,
    serving,
    nodeClient,
    adminToken,
    serviceAccountKeyPem: ensureServiceAccountKey(dir),
  };
}

/** `sa.key` / `sa.pub`: created once; tokens signed with it stay valid across restarts. */
function ensureServiceAccountKey(dir: string): string {
  const keyFile = join(dir, "sa.key");
  if (!existsSync(keyFile)) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    writeAtomic(
      join(dir, "sa.pub"),
      publicKey.export({ type: "spki", format: "pem" }).toString(),
      0o644,
    );
    writeAtomic(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }).toString(), 0o600);
  }
  return readFileSync(keyFile, "utf8");
}
