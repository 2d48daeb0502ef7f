/**
 * The two Secrets a control plane gets from its DataStore, in Kamaji's shape,
 * as pure builders (the TenantControlPlane controller writes them):
 *
 * - `<tcp>-datastore-certificate`: `ca.crt` (the DataStore's CA), `server.crt`
 *   and `server.key` (a client certificate with CN = the etcd user, signed by
 *   that CA — etcd authenticates the user by it);
 * - `<tcp>-datastore-config`: `DB_CONNECTION_STRING` (empty for etcd),
 *   `DB_SCHEMA`, `DB_USER`, `DB_PASSWORD` (unused by etcd, kept while the
 *   Secret's checksum matches its data, else a new UUID), with the finalizer
 *   that keeps it until the datastore cleanup has read it (Kamaji #376).
 *
 * Both are owned by the control plane and labelled as Kamaji labels them.
 */
import { createHash, randomUUID } from "node:crypto";
import type { KubeObject, OwnerReference } from "../../api/index.js";
import { certMismatch, issueLeaf, type KeyPair } from "../../pki/index.js";
import type { TenantSetup } from "./tenant-setup.js";

export const TCP_API_VERSION = "kamaji.clastix.io/v1alpha1";
export const DATASTORE_SECRET_FINALIZER = "finalizer.kamaji.clastix.io/datastore-secret";
export const CHECKSUM_ANNOTATION = "kamaji.clastix.io/checksum";

export interface Secret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
}

/** The control plane the Secrets belong to. */
export interface ControlPlaneRef {
  name: string;
  namespace: string;
  uid: string;
}

export const datastoreCertificateSecretName = (tcp: string) => `${tcp}-datastore-certificate`;
export const datastoreConfigSecretName = (tcp: string) => `${tcp}-datastore-config`;

const b64 = (s: string) => Buffer.from(s).toString("base64");
const unb64 = (s: string | undefined) => (s ? Buffer.from(s, "base64").toString() : "");

/** A client certificate for etcd user `user`: CN = user, signed by the DataStore's CA. */
export function issueDataStoreClientCertificate(ca: KeyPair, user: string): Promise<KeyPair> {
  return issueLeaf(ca, { commonName: user, usage: ["client"] });
}

/** sha256 of a Secret's data, keys in order (Kamaji keeps an md5 there; only equality matters). */
export function dataChecksum(data: Record<string, string>): string {
  const h = createHash("sha256");
  for (const k of Object.keys(data).sort()) h.update(`${k}\0${data[k]}\0`);
  return h.digest("hex");
}

function secret(
  tcp: ControlPlaneRef,
  name: string,
  component: string,
  data: Record<string, string>,
): Secret {
  const owner: OwnerReference = {
    apiVersion: TCP_API_VERSION,
    kind: "TenantControlPlane",
    name: tcp.name,
    uid: tcp.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: {
      name,
      namespace: tcp.namespace,
      labels: {
        "kamaji.clastix.io/project": "kamaji",
        "kamaji.clastix.io/name": tcp.name,
        "kamaji.clastix.io/component": component,
      },
      annotations: { [CHECKSUM_ANNOTATION]: dataChecksum(data) },
      ownerReferences: [owner],
    },
    type: "Opaque",
    data,
  };
}

export function datastoreCertificateSecret(
  tcp: ControlPlaneRef,
  caPem: string,
  client: KeyPair,
): Secret {
  return secret(tcp, datastoreCertificateSecretName(tcp.name), "datastore-certificate", {
    "ca.crt": b64(caPem),
    "server.crt": b64(client.certPem),
    "server.key": b64(client.keyPem),
  });
}

/**
 * Why `existing` no longer serves user `user` on the CA `caPem` (another CA,
 * another CN, expiring, a key missing), or undefined when it does.
 */
export async function datastoreCertificateMismatch(
  existing: Secret,
  caPem: string,
  user: string,
): Promise<string | undefined> {
  const d = existing.data ?? {};
  if (unb64(d["ca.crt"]) !== caPem) return "ca.crt is not the DataStore's CA";
  if (!d["server.key"]) return "server.key missing";
  return certMismatch(unb64(d["server.crt"]), caPem, { commonName: user, usage: ["client"] });
}

/** The password `existing` holds when its checksum still matches its data (Kamaji's rule). */
export function keptPassword(existing: Secret | undefined): string | undefined {
  const data = existing?.data;
  if (!data || existing.metadata.annotations?.[CHECKSUM_ANNOTATION] !== dataChecksum(data))
    return undefined;
  return unb64(data.DB_PASSWORD) || undefined;
}

export function datastoreConfigSecret(
  tcp: ControlPlaneRef,
  setup: TenantSetup,
  existing?: Secret,
  newPassword: () => string = randomUUID,
): Secret {
  const s = secret(tcp, datastoreConfigSecretName(tcp.name), "datastore-config", {
    DB_CONNECTION_STRING: "",
    DB_SCHEMA: b64(setup.schema),
    DB_USER: b64(setup.user),
    DB_PASSWORD: b64(keptPassword(existing) ?? newPassword()),
  });
  const finalizers = new Set([
    ...(existing?.metadata.finalizers ?? []),
    DATASTORE_SECRET_FINALIZER,
  ]);
  s.metadata.finalizers = [...finalizers];
  return s;
}

/** The schema and user a `<tcp>-datastore-config` Secret names (the cleanup reads them back). */
export function setupFromConfigSecret(s: Secret): TenantSetup | undefined {
  const schema = unb64(s.data?.DB_SCHEMA);
  const user = unb64(s.data?.DB_USER);
  return schema && user ? { schema, user } : undefined;
}
