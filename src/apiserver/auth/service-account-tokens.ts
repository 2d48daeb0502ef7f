/**
 * Bound ServiceAccount tokens, as kube-apiserver issues them: ES256 JWTs with
 * `iss`, `sub` (`system:serviceaccount:<ns>:<name>`), `aud`, `exp`/`iat`/`nbf`,
 * a `jti`, and the private `kubernetes.io` claim naming the ServiceAccount (and
 * the Pod or Secret the token is bound to) by name and uid. Validation checks
 * signature, issuer, audience and times (with go-jose's one-minute leeway); the
 * caller checks that the named objects still exist with those uids.
 */
import { createPublicKey, type KeyObject, randomUUID } from "node:crypto";
import { type JwtClaims, keyId, signJwt, verifyJwt } from "./jwt.js";

export const SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";
export const SERVICE_ACCOUNTS_GROUP = "system:serviceaccounts";
export const DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";
const LEEWAY_S = 60;

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`;
}

export function serviceAccountGroups(namespace: string): string[] {
  return [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${namespace}`];
}

/** `{namespace, name}` of a ServiceAccount user name, or undefined for any other user. */
export function splitServiceAccountUsername(
  username: string,
): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(":");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "") return undefined;
  return { namespace: parts[0]!, name: parts[1]! };
}

export interface ObjectRef {
  name: string;
  uid: string;
}

export interface TokenSubject {
  namespace: string;
  serviceAccount: ObjectRef;
  /** The object the token is bound to, if any: `pod`, `secret` or `node`. */
  bound?: { kind: "pod" | "secret" | "node"; ref: ObjectRef };
}

export interface ValidatedToken extends TokenSubject {
  jti: string;
}

export class ServiceAccountTokens {
  private readonly publicKeys: KeyObject[];
  private readonly kid: string;

  constructor(
    private readonly privateKey: KeyObject,
    readonly issuer = DEFAULT_ISSUER,
    /** What tokens for this API must be addressed to; kube defaults it to the issuer. */
    readonly apiAudiences: string[] = [issuer],
    extraPublicKeys: KeyObject[] = [],
  ) {
    const own = createPublicKey(privateKey);
    this.publicKeys = [own, ...extraPublicKeys];
    this.kid = keyId(own);
  }

  issue(
    subject: TokenSubject,
    audiences: string[],
    expirationSeconds: number,
    now = Date.now(),
  ): { token: string; expiration: Date } {
    const iat = Math.floor(now / 1000);
    const exp = iat + expirationSeconds;
    const private_: Record<string, unknown> = {
      namespace: subject.namespace,
      serviceaccount: subject.serviceAccount,
    };
    if (subject.bound) private_[subject.bound.kind] = subject.bound.ref;
    const claims: JwtClaims = {
      aud: audiences,
      exp,
      iat,
      iss: this.issuer,
      jti: randomUUID(),
      "kubernetes.io": private_,
      nbf: iat,
      sub: serviceAccountUsername(subject.namespace, subject.serviceAccount.name),
    };
    return { token: signJwt(claims, this.privateKey, this.kid), expiration: new Date(exp * 1000) };
  }

  /** The token's subject, or why it is not valid for this API. */
  validate(token: string, now = Date.now()): ValidatedToken | { error: string } {
    const verified = verifyJwt(token, this.publicKeys);
    if ("error" in verified) return verified;
    const c = verified.claims;
    if (c.iss !== this.issuer) return { error: "token issuer is not accepted" };
    const aud = typeof c.aud === "string" ? [c.aud] : Array.isArray(c.aud) ? c.aud : [];
    if (!aud.some((a) => this.apiAudiences.includes(String(a))))
      return { error: "token audiences is invalid" };
    const t = now / 1000;
    if (typeof c.exp !== "number" || t > c.exp + LEEWAY_S) return { error: "token has expired" };
    if (typeof c.nbf === "number" && t < c.nbf - LEEWAY_S)
      return { error: "token is not valid yet" };
    const k8s = c["kubernetes.io"] as Record<string, unknown> | undefined;
    const sa = k8s?.serviceaccount as ObjectRef | undefined;
    const namespace = k8s?.namespace;
    if (typeof namespace !== "string" || !sa?.name || !sa.uid)
      return { error: "token lacks the kubernetes.io claims" };
    if (c.sub !== serviceAccountUsername(namespace, sa.name))
      return { error: "token subject does not match its service account" };
    const out: ValidatedToken = {
      namespace,
      serviceAccount: sa,
      jti: typeof c.jti === "string" ? c.jti : "",
    };
    for (const kind of ["pod", "secret", "node"] as const) {
      const ref = k8s?.[kind] as ObjectRef | undefined;
      if (ref?.name) out.bound = { kind, ref };
    }
    return out;
  }
}
