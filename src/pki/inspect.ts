/**
 * Reading certificates back: what a PEM certificate says (CN, SANs, usages,
 * validity, issuer) and whether an existing one still fits what is wanted —
 * signed by the current CA, covering every wanted name and address, with the
 * wanted usages, and not near expiry — so an owner re-issues only then.
 */
import * as x509 from "@peculiar/x509";

export interface CertInfo {
  commonName: string;
  dnsNames: string[];
  ipAddresses: string[];
  usage: ("server" | "client")[];
  notBefore: Date;
  notAfter: Date;
  issuer: string;
  isCA: boolean;
}

export interface WantedCert {
  commonName: string;
  dnsNames?: string[];
  ipAddresses?: string[];
  usage: ("server" | "client")[];
}

const DAY_MS = 24 * 3600 * 1000;

/** Re-issue a certificate that has less than this left (or a tenth of its life). */
export const RENEW_BEFORE_MS = 30 * DAY_MS;

function commonNameOf(name: x509.Name): string {
  for (const rdn of name.toJSON())
    for (const [type, values] of Object.entries(rdn)) {
      if (type === "CN") return values[0] ?? "";
    }
  return "";
}

export function inspectCert(pem: string): CertInfo {
  const cert = new x509.X509Certificate(pem);
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  const names = san?.names.toJSON() ?? [];
  const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
  const usages = (eku?.usages ?? []).map(String);
  const usage: CertInfo["usage"] = [];
  if (usages.includes(x509.ExtendedKeyUsage.serverAuth)) usage.push("server");
  if (usages.includes(x509.ExtendedKeyUsage.clientAuth)) usage.push("client");
  return {
    commonName: commonNameOf(new x509.Name(cert.subject)),
    dnsNames: names.filter((n) => n.type === "dns").map((n) => n.value),
    ipAddresses: names.filter((n) => n.type === "ip").map((n) => n.value),
    usage,
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
    issuer: cert.issuer,
    isCA: cert.getExtension(x509.BasicConstraintsExtension)?.ca ?? false,
  };
}

/** Whether `certPem` carries a valid signature of the CA in `caPem`. */
export async function signedBy(certPem: string, caPem: string): Promise<boolean> {
  const cert = new x509.X509Certificate(certPem);
  const ca = new x509.X509Certificate(caPem);
  if (cert.issuer !== ca.subject) return false;
  return cert.verify({ publicKey: ca, signatureOnly: true });
}

/** True when the CA's certificate is valid now and has more than `RENEW_BEFORE_MS` left. */
export function fresh(info: CertInfo, now = Date.now()): boolean {
  const life = info.notAfter.getTime() - info.notBefore.getTime();
  const left = info.notAfter.getTime() - now;
  return info.notBefore.getTime() <= now && left > Math.min(RENEW_BEFORE_MS, life / 10);
}

/**
 * Why `certPem` no longer fits `wanted` under the CA `caPem` (undefined when it
 * fits): another CA, a missing name or address, a missing usage, another CN, or
 * near expiry. Extra names are fine.
 */
export async function certMismatch(
  certPem: string,
  caPem: string,
  wanted: WantedCert,
  now = Date.now(),
): Promise<string | undefined> {
  let info: CertInfo;
  try {
    info = inspectCert(certPem);
  } catch (e) {
    return `unreadable certificate: ${(e as Error).message}`;
  }
  if (!(await signedBy(certPem, caPem))) return "not signed by the current CA";
  if (info.commonName !== wanted.commonName)
    return `CN is ${JSON.stringify(info.commonName)}, want ${JSON.stringify(wanted.commonName)}`;
  const missing = [
    ...(wanted.dnsNames ?? []).filter((n) => !info.dnsNames.includes(n)),
    ...(wanted.ipAddresses ?? []).filter((n) => !info.ipAddresses.includes(n)),
  ];
  if (missing.length > 0) return `SANs lack ${missing.join(", ")}`;
  const lacking = wanted.usage.filter((u) => !info.usage.includes(u));
  if (lacking.length > 0) return `usages lack ${lacking.join(", ")}`;
  if (!fresh(info, now)) return `expires ${info.notAfter.toISOString()}`;
  return undefined;
}
