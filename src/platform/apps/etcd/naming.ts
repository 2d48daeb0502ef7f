/**
 * The Etcd app's names. The module is installed as `etcd` (Cozystack's module
 * charts refuse any other release name), so its EtcdCluster is `etcd`, its
 * client Service `etcd-client`, and its DataStore is named after the tenant
 * namespace (one etcd per tenant). The TLS Secrets are the five Cozystack's
 * chart declares. Generated names that could outgrow their kind's limit are cut
 * with a hash suffix (`boundedName`).
 */
import { createHash } from "node:crypto";

export const ETCD_APP_NAME = "etcd";

/** The Secrets the operator creates or issues and the app's post-delete hook removes. */
export const TLS_SECRETS = {
  ca: "etcd-ca-tls",
  peerCa: "etcd-peer-ca-tls",
  server: "etcd-server-tls",
  peer: "etcd-peer-tls",
  client: "etcd-client-tls",
} as const;

/** A CronJob's name leaves 11 characters for its Jobs' suffix (kube's 52). */
export const CRONJOB_NAME_LIMIT = 52;
const HASH_LENGTH = 8;

/** `name` if it fits `limit`, else its head, `-`, and 8 hex characters of its hash. */
export function boundedName(name: string, limit: number): string {
  if (name.length <= limit) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, HASH_LENGTH);
  const head = name.slice(0, limit - HASH_LENGTH - 1).replace(/[-.]+$/, "");
  return `${head}-${hash}`;
}

export const defragCronJobName = (cluster: string) =>
  boundedName(`${cluster}-defrag`, CRONJOB_NAME_LIMIT);

/** The DataStore of the etcd in tenant namespace `namespace`. */
export const dataStoreName = (namespace: string) => namespace;

/** How control planes reach the etcd (a DNS-style name, as Kamaji's DataStores carry). */
export const clientEndpoint = (clientService: string, namespace: string) =>
  `${clientService}.${namespace}.svc:2379`;
