/**
 * Compact JWS with ES256 (ECDSA P-256, SHA-256, raw r||s signatures) on
 * node:crypto: sign claims, and verify a token's header and signature against a
 * set of public keys. Claim checks (issuer, audience, times) are the caller's.
 */
import { createHash, type KeyObject, sign, verify } from "node:crypto";

export type JwtClaims = Record<string, unknown>;

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

const keyIds = new WeakMap<KeyObject, string>();

/** kube's key id: the base64url SHA-256 of the public key's DER SubjectPublicKeyInfo. */
export function keyId(publicKey: KeyObject): string {
  let id = keyIds.get(publicKey);
  if (id === undefined) {
    const der = publicKey.export({ type: "spki", format: "der" });
    id = b64url(createHash("sha256").update(der).digest());
    keyIds.set(publicKey, id);
  }
  return id;
}

export function signJwt(claims: JwtClaims, privateKey: KeyObject, kid: string): string {
  const header = b64url(JSON.stringify({ alg: "ES256", kid }));
  const payload = b64url(JSON.stringify(claims));
  const input = `${header}.${payload}`;
  const signature = sign("sha256", Buffer.from(input), {
    key: privateKey,
    dsaEncoding: "ieee-p1363",
  });
  return `${input}.${b64url(signature)}`;
}

/** True when the token has the shape of a JWT (three base64url parts, a JSON header). */
export function looksLikeJwt(token: string): boolean {
  const parts = token.split(".");
  if (parts.length !== 3) return false;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, "base64url").toString("utf8")) as unknown;
    return typeof header === "object" && header !== null && "alg" in header;
  } catch {
    return false;
  }
}

/** The claims of a token signed by one of `publicKeys`, or an error message. */
export function verifyJwt(
  token: string,
  publicKeys: KeyObject[],
): { claims: JwtClaims } | { error: string } {
  const parts = token.split(".");
  if (parts.length !== 3) return { error: "malformed token" };
  const [h, p, s] = parts as [string, string, string];
  let header: { alg?: string; kid?: string };
  let claims: JwtClaims;
  try {
    header = JSON.parse(Buffer.from(h, "base64url").toString("utf8"));
    claims = JSON.parse(Buffer.from(p, "base64url").toString("utf8"));
  } catch {
    return { error: "malformed token" };
  }
  if (header.alg !== "ES256")
    return { error: `unsupported signing algorithm ${String(header.alg)}` };
  if (typeof claims !== "object" || claims === null) return { error: "malformed token" };
  const signature = Buffer.from(s, "base64url");
  const input = Buffer.from(`${h}.${p}`);
  for (const key of publicKeys) {
    if (header.kid && header.kid !== keyId(key)) continue;
    if (verify("sha256", input, { key, dsaEncoding: "ieee-p1363" }, signature)) return { claims };
  }
  return { error: "invalid signature" };
}
