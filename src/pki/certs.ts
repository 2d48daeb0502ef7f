/**
 * X.509 issuance with @peculiar/x509 on WebCrypto: a self-signed CA, and leaf
 * certificates (server, client, peer) signed by it, all ECDSA P-256, as PEM.
 * Used for the apiserver's serving certificate and, later, etcd and tenant PKI.
 */
import { randomBytes, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALG = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY_MS = 24 * 3600 * 1000;

export interface KeyPair {
  certPem: string;
  keyPem: string;
}

export interface LeafOptions {
  commonName: string;
  organization?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  usage: ("server" | "client")[];
  days?: number;
}

function serial(): string {
  const b = randomBytes(16);
  b[0] = b[0]! & 0x7f;
  return b.toString("hex");
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey("pkcs8", key);
  const b64 = Buffer.from(der).toString("base64").replace(/.{64}/g, "$&\n");
  return `-----BEGIN PRIVATE KEY-----\n${b64.trimEnd()}\n-----END PRIVATE KEY-----\n`;
}

async function importKey(pem: string): Promise<CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
  return webcrypto.subtle.importKey("pkcs8", der, ALG, true, ["sign"]);
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALG, true, ["sign", "verify"]);
}

function subject(cn: string, orgs: string[] = []): string {
  const esc = (s: string) => s.replace(/([,+"\\<>;=])/g, "\\$1");
  return [`CN=${esc(cn)}`, ...orgs.map((o) => `O=${esc(o)}`)].join(", ");
}

export async function createCA(commonName: string, days = 3650): Promise<KeyPair> {
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: subject(commonName),
    notBefore: new Date(now - 3600_000),
    notAfter: new Date(now + days * DAY_MS),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign |
          x509.KeyUsageFlags.cRLSign |
          x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await keyPem(keys.privateKey) };
}

export async function issueLeaf(ca: KeyPair, opts: LeafOptions): Promise<KeyPair> {
  const keys = await generateKeys();
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await importKey(ca.keyPem);
  const now = Date.now();
  const usages: string[] = [];
  if (opts.usage.includes("server")) usages.push(x509.ExtendedKeyUsage.serverAuth);
  if (opts.usage.includes("client")) usages.push(x509.ExtendedKeyUsage.clientAuth);
  const names: x509.JsonGeneralName[] = [
    ...(opts.dnsNames ?? []).map((value) => ({ type: "dns" as const, value })),
    ...(opts.ipAddresses ?? []).map((value) => ({ type: "ip" as const, value })),
  ];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: subject(opts.commonName, opts.organization),
    issuer: caCert.subject,
    notBefore: new Date(now - 3600_000),
    notAfter: new Date(now + (opts.days ?? 3650) * DAY_MS),
    signingAlgorithm: ALG,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension(usages),
      ...(names.length ? [new x509.SubjectAlternativeNameExtension(names)] : []),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await keyPem(keys.privateKey) };
}
