/**
 * A cluster's Services: headless `<cluster>` (client and peer ports, every
 * member listed ready or not), `<cluster>-client` (one ClusterIP for clients,
 * to the voting members),
 * and one ClusterIP Service per member named after it — that ClusterIP is the
 * member's stable address, advertised to peers and clients and written into
 * the certificates.
 */
import type { KubeObject } from "../../../api/index.js";
import type { Client } from "../../../client/index.js";
import { ownerRef } from "./member-pod.js";
import {
  CLIENT_PORT,
  clientServiceName,
  clusterLabels,
  type EtcdCluster,
  type EtcdMember,
  LABEL_COMPONENT,
  LABEL_ROLE,
  MANAGER,
  memberLabels,
  PEER_PORT,
} from "./types.js";

interface Service extends KubeObject {
  spec?: { clusterIP?: string };
}

const ports = [
  { name: "client", port: CLIENT_PORT, targetPort: CLIENT_PORT },
  { name: "peer", port: PEER_PORT, targetPort: PEER_PORT },
];

function service(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  owner: ReturnType<typeof ownerRef>,
  spec: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace, labels, ownerReferences: [owner] },
    spec,
  };
}

async function apply(client: Client, obj: KubeObject): Promise<Service> {
  return client.apply<Service>(obj, { fieldManager: MANAGER, force: true });
}

/** Applies the headless and client Services; answers the client Service's ClusterIP. */
export async function applyClusterServices(client: Client, cluster: EtcdCluster): Promise<string> {
  const name = cluster.metadata.name!;
  const ns = cluster.metadata.namespace!;
  const labels = clusterLabels(name);
  const owner = ownerRef(cluster);
  await apply(
    client,
    service(name, ns, labels, owner, {
      clusterIP: "None",
      selector: labels,
      publishNotReadyAddresses: true,
      ports,
    }),
  );
  const svc = await apply(
    client,
    service(clientServiceName(name), ns, labels, owner, {
      // A learner refuses most requests ("rpc not supported for learner").
      selector: { ...labels, [LABEL_ROLE]: "voter" },
      ports: [ports[0]],
    }),
  );
  return svc.spec?.clusterIP ?? "";
}

/** Applies member `member`'s own Service; answers its ClusterIP, the member's address. */
export async function applyMemberService(
  client: Client,
  cluster: EtcdCluster,
  member: EtcdMember,
): Promise<string> {
  const name = member.metadata.name!;
  const labels = memberLabels(cluster.metadata.name!, name);
  const svc = await apply(
    client,
    service(name, member.metadata.namespace!, labels, ownerRef(member), {
      selector: { ...clusterLabels(cluster.metadata.name!), [LABEL_COMPONENT]: name },
      publishNotReadyAddresses: true,
      ports,
    }),
  );
  return svc.spec?.clusterIP ?? "";
}

/** The DNS names a certificate of the cluster names: every Service in its kube forms, every member. */
export function serviceDnsNames(cluster: EtcdCluster, members: string[]): string[] {
  const name = cluster.metadata.name!;
  const ns = cluster.metadata.namespace!;
  const forms = (svc: string) => [svc, `${svc}.${ns}`, `${svc}.${ns}.svc`];
  return [...[name, clientServiceName(name), ...members].flatMap(forms), `*.${name}.${ns}.svc`];
}
