/**
 * The data directory of `hearth up`: the PKI (CA, serving certificate, admin
 * token, ServiceAccount token signing key) created on first start and reused
 * after, and the admin kubeconfig.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createCA, issueLeaf, type KeyPair } from "../pki/index.js";

export interface ServerPki {
  ca: KeyPair;
  serving: KeyPair;
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

function writePair(dir: string, name: string, pair: KeyPair): void {
  writeFileSync(join(dir, `${name}.key`), pair.keyPem, { mode: 0o600 });
  writeFileSync(join(dir, `${name}.crt`), pair.certPem, { mode: 0o644 });
}

/** Loads `DIR/pki`, creating what is missing. */
export async function ensurePki(
  dataDir: string,
  hosts: { dns: string[]; ips: string[] },
): Promise<ServerPki> {
  const dir = join(dataDir, "pki");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
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
  const tokenFile = join(dir, "admin.token");
  if (!existsSync(tokenFile))
    writeFileSync(tokenFile, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
  const adminToken = readFileSync(tokenFile, "utf8").trim();
  return { ca, serving, adminToken, serviceAccountKeyPem: ensureServiceAccountKey(dir) };
}

/** `sa.key` / `sa.pub`: created once; tokens signed with it stay valid across restarts. */
function ensureServiceAccountKey(dir: string): string {
  const keyFile = join(dir, "sa.key");
  if (!existsSync(keyFile)) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    writeFileSync(join(dir, "sa.pub"), publicKey.export({ type: "spki", format: "pem" }), {
      mode: 0o644,
    });
    writeFileSync(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  }
  return readFileSync(keyFile, "utf8");
}
