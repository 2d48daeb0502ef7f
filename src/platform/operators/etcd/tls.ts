/**
 * A cluster's certificates, in the Secrets its spec names: the client CA and
 * the peer CA (created when absent, not owned: they outlive the cluster), the
 * operator's client certificate (CN root, not owned), and the server and peer
 * certificates (owned), issued again whenever they stop covering every Service
 * name, member name and member address.
 */
import type { Client, EventRecorder } from "../../../client/index.js";
import { ensureCASecret, ensureLeafSecret, secretPems, type TlsSecret } from "../../pki-secrets.js";
import type { EtcdCredentials } from "./etcd-api.js";
import { ownerRef } from "./member-pod.js";
import { serviceDnsNames } from "./services.js";
import { clusterLabels, type EtcdCluster } from "./types.js";

/** Every name and address of the cluster that its server and peer certificates must cover. */
export interface ClusterAddresses {
  members: string[];
  ips: string[];
}

export interface ClusterTls {
  /** The operator's credentials: client CA, certificate CN root. */
  creds: EtcdCredentials;
  /** Changes whenever the server or peer certificate is re-issued. */
  version: string;
}

/** Ensures every Secret. */
export async function ensureClusterTls(
  client: Client,
  events: EventRecorder,
  cluster: EtcdCluster,
  addresses: ClusterAddresses,
): Promise<ClusterTls> {
  const name = cluster.metadata.name!;
  const namespace = cluster.metadata.namespace!;
  const labels = clusterLabels(name);
  const tls = cluster.spec.tls;
  const target = (secret: string, owned: boolean) => ({
    namespace,
    name: secret,
    labels,
    ...(owned ? { owner: ownerRef(cluster) } : {}),
  });
  const clientCa = await ensureCASecret(
    client,
    target(tls.client.caSecretRef.name, false),
    `${name}-ca`,
  );
  const peerCa = await ensureCASecret(
    client,
    target(tls.peer.caSecretRef.name, false),
    `${name}-peer-ca`,
  );
  const wanted = {
    commonName: name,
    dnsNames: [...serviceDnsNames(cluster, addresses.members), ...addresses.members],
    ipAddresses: addresses.ips,
    usage: ["server", "client"] as ("server" | "client")[],
  };
  const issued = [
    [
      tls.client.clientSecretRef.name,
      await ensureLeafSecret(client, target(tls.client.clientSecretRef.name, false), clientCa, {
        commonName: "root",
        usage: ["client"],
      }),
    ],
    [
      tls.client.serverSecretRef.name,
      await ensureLeafSecret(
        client,
        target(tls.client.serverSecretRef.name, true),
        clientCa,
        wanted,
      ),
    ],
    [
      tls.peer.secretRef.name,
      await ensureLeafSecret(client, target(tls.peer.secretRef.name, true), peerCa, wanted),
    ],
  ] as const;
  for (const [secret, why] of issued)
    if (why)
      events.event(cluster, "Normal", "CertificateIssued", `issued Secret ${secret}: ${why}`);
  const get = (secret: string) =>
    client.get<TlsSecret>({ apiVersion: "v1", kind: "Secret", name: secret, namespace });
  const pems = secretPems(await get(tls.client.clientSecretRef.name));
  const versions = await Promise.all(
    [tls.client.serverSecretRef.name, tls.peer.secretRef.name].map(
      async (s) => (await get(s)).metadata.resourceVersion,
    ),
  );
  return {
    creds: { caPem: clientCa.certPem, certPem: pems.cert, keyPem: pems.key },
    version: versions.join("-"),
  };
}
