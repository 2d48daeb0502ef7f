/**
 * Certificates kept in Secrets, through the client, in cert-manager's layout
 * (`tls.crt`, `tls.key`, `ca.crt`, type `kubernetes.io/tls`): a CA Secret is
 * created when absent and otherwise left alone (the CA is the trust root of
 * everything issued from it); a leaf Secret is issued from a CA and issued
 * again only when what it holds no longer fits — another CA, a name or address
 * missing, another CN or usage, near expiry.
 */

import type { KubeObject, OwnerReference } from "../api/index.js";
import { hasCode } from "../api/index.js";
import { getOptional, type Reader, type Writer } from "../client/index.js";
import { certMismatch, createCA, issueLeaf, type KeyPair, type WantedCert } from "../pki/index.js";

export type SecretClient = Pick<Reader, "get"> & Pick<Writer, "create" | "update">;

export interface SecretTarget {
  namespace: string;
  name: string;
  labels?: Record<string, string>;
  /** Set on a Secret this call creates or re-issues. */
  owner?: OwnerReference;
}

export interface TlsSecret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
}

const b64 = (s: string) => Buffer.from(s).toString("base64");
const unb64 = (s: string | undefined) => (s ? Buffer.from(s, "base64").toString() : "");

/** The PEMs of a TLS Secret ("" for a missing key). */
export function secretPems(s: TlsSecret): { cert: string; key: string; ca: string } {
  return {
    cert: unb64(s.data?.["tls.crt"]),
    key: unb64(s.data?.["tls.key"]),
    ca: unb64(s.data?.["ca.crt"]),
  };
}

function secretObject(t: SecretTarget, pair: KeyPair, caPem: string): TlsSecret {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: {
      name: t.name,
      namespace: t.namespace,
      ...(t.labels ? { labels: t.labels } : {}),
      ...(t.owner ? { ownerReferences: [t.owner] } : {}),
    },
    type: "kubernetes.io/tls",
    data: { "tls.crt": b64(pair.certPem), "tls.key": b64(pair.keyPem), "ca.crt": b64(caPem) },
  };
}

async function read(client: SecretClient, t: SecretTarget): Promise<TlsSecret | undefined> {
  const ref = { apiVersion: "v1", kind: "Secret", name: t.name, namespace: t.namespace };
  return getOptional<TlsSecret>(client, ref);
}

/** The CA in Secret `t`, created (self-signed, CN `commonName`) when the Secret is absent. */
export async function ensureCASecret(
  client: SecretClient,
  t: SecretTarget,
  commonName: string,
): Promise<KeyPair> {
  const existing = await read(client, t);
  if (existing) {
    const { cert, key } = secretPems(existing);
    if (!cert || !key)
      throw new Error(`CA Secret ${t.namespace}/${t.name} lacks tls.crt or tls.key`);
    return { certPem: cert, keyPem: key };
  }
  const ca = await createCA(commonName);
  const { owner: _notOwned, ...unowned } = t;
  try {
    await client.create(secretObject(unowned, ca, ca.certPem));
    return ca;
  } catch (e) {
    // Another writer created it meanwhile: theirs is the CA.
    if (hasCode(e, 409)) return ensureCASecret(client, t, commonName);
    throw e;
  }
}

/**
 * Secret `t` holds a certificate from `ca` fitting `wanted`; issues (creates
 * or replaces) it when it does not. Returns why it was issued, or undefined
 * when the existing one fits.
 */
export async function ensureLeafSecret(
  client: SecretClient,
  t: SecretTarget,
  ca: KeyPair,
  wanted: WantedCert,
): Promise<string | undefined> {
  const existing = await read(client, t);
  let why = "absent";
  if (existing) {
    const pems = secretPems(existing);
    const mismatch =
      (await certMismatch(pems.cert, ca.certPem, wanted)) ??
      (pems.ca !== ca.certPem ? "ca.crt is not the current CA" : undefined) ??
      (pems.key ? undefined : "tls.key missing");
    if (!mismatch) return undefined;
    why = mismatch;
  }
  const pair = await issueLeaf(ca, { ...wanted });
  const obj = secretObject(t, pair, ca.certPem);
  if (!existing) await client.create(obj);
  else
    await client.update({
      ...obj,
      metadata: {
        ...existing.metadata,
        labels: { ...existing.metadata.labels, ...t.labels },
        ...(existing.metadata.ownerReferences || t.owner
          ? { ownerReferences: existing.metadata.ownerReferences ?? [t.owner!] }
          : {}),
      },
    });
  return why;
}
