/**
 * x509 client-certificate authentication, as kube-apiserver's `--client-ca-file`:
 * the peer's chain must lead to one of the CA certificates (signatures, validity
 * dates, CA flag on intermediates, the leaf usable for client auth); the user is
 * the subject's CN and the groups its O values. The server asks for a
 * certificate but does not require one, so tokens keep working; a verified
 * identity is remembered per connection.
 */
import { X509Certificate } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { type DetailedPeerCertificate, TLSSocket } from "node:tls";
import type { Authenticator, UserInfo } from "./types.js";

const CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
const ANY_USAGE = "2.5.29.37.0";

export type ChainResult = { user: UserInfo } | { error: string };

function timeError(cert: X509Certificate, now: Date): string | undefined {
  if (now < new Date(cert.validFrom) || now > new Date(cert.validTo))
    return `x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is outside ${cert.validFrom} – ${cert.validTo}`;
  return undefined;
}

function issuedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

/** `chain[0]` is the client's certificate, the rest are intermediates it sent. */
export function verifyClientChain(
  chain: X509Certificate[],
  roots: X509Certificate[],
  now = new Date(),
): ChainResult {
  const leaf = chain[0];
  if (!leaf) return { error: "no client certificate" };
  const usages = leaf.keyUsage;
  if (usages && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_USAGE))
    return { error: "x509: certificate specifies an incompatible key usage" };
  let current = leaf;
  for (let depth = 0; depth < 8; depth++) {
    const expired = timeError(current, now);
    if (expired) return { error: expired };
    const root = roots.find((r) => issuedBy(current, r) && !timeError(r, now));
    if (root) return userOf(leaf);
    const next = chain.slice(1).find((c) => c !== current && c.ca && issuedBy(current, c));
    if (!next) break;
    current = next;
  }
  return { error: "x509: certificate signed by unknown authority" };
}

function userOf(cert: X509Certificate): ChainResult {
  const subject = cert.toLegacyObject().subject as unknown as Record<string, string | string[]>;
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : [v].flat());
  const username = list(subject.CN)[0] ?? "";
  if (username === "") return { error: "x509: the certificate has no common name" };
  return { user: { username, groups: list(subject.O) } };
}

/** The certificates the peer sent, leaf first. */
function peerChain(socket: TLSSocket): X509Certificate[] {
  const out: X509Certificate[] = [];
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (cert?.raw && out.length < 10) {
    out.push(new X509Certificate(cert.raw));
    if (cert.issuerCertificate === cert) break;
    cert = cert.issuerCertificate;
  }
  return out;
}

export class ClientCertificateAuthenticator implements Authenticator {
  private readonly roots: X509Certificate[];
  private readonly verified = new WeakMap<TLSSocket, ChainResult>();

  constructor(
    caPems: string[],
    private readonly log: (msg: string) => void = () => {},
  ) {
    this.roots = caPems.map((pem) => new X509Certificate(pem));
  }

  authenticate(req: IncomingMessage): UserInfo | undefined {
    const socket = req.socket;
    if (!(socket instanceof TLSSocket)) return undefined;
    let result = this.verified.get(socket);
    if (!result) {
      const chain = peerChain(socket);
      if (chain.length === 0) return undefined;
      result = verifyClientChain(chain, this.roots);
      if ("error" in result) this.log(`client certificate refused: ${result.error}`);
      this.verified.set(socket, result);
    }
    return "user" in result ? result.user : undefined;
  }
}
