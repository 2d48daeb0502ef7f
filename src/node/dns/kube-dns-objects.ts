/**
 * The `kube-dns` Service of `kube-system` and its one EndpointSlice, as the
 * platform keeps them: the Service has kubeadm's name, labels, fixed
 * ClusterIP and ports (dns 53/UDP, dns-tcp 53/TCP) but no selector, so the
 * EndpointSlice controller leaves its endpoints alone; the slice, written by
 * Hearth, names the address the DNS server listens on (the node's pod-bridge
 * gateway) as the one ready endpoint. Only the platform writes kube-system:
 * tenants' roles never reach it.
 */
import type { KubeObject } from "../../api/index.js";
import { type Client, getOptional } from "../../client/index.js";
import { SERVICE_NAME_LABEL } from "../nft/types.js";
import { CLUSTER_DOMAIN_ANNOTATION, KUBE_DNS_NAME, KUBE_DNS_NAMESPACE } from "./cluster-dns.js";

export const KUBE_DNS_SLICE = "kube-dns-hearth";
export const KUBE_DNS_MANAGER = "hearth-cluster-dns";
const MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";
const MANAGED_BY = "hearth-cluster-dns";

export interface KubeDnsFacts {
  clusterIP: string;
  domain: string;
  /** Where the server answers: the endpoint's address and port. */
  address: string;
  port: number;
  nodeName: string;
}

export function kubeDnsService(f: KubeDnsFacts): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: KUBE_DNS_NAME,
      namespace: KUBE_DNS_NAMESPACE,
      labels: {
        "k8s-app": "kube-dns",
        "kubernetes.io/cluster-service": "true",
        "kubernetes.io/name": "CoreDNS",
      },
      annotations: { [CLUSTER_DOMAIN_ANNOTATION]: f.domain },
    },
    spec: {
      type: "ClusterIP",
      clusterIP: f.clusterIP,
      ports: [
        { name: "dns", port: 53, protocol: "UDP", targetPort: f.port },
        { name: "dns-tcp", port: 53, protocol: "TCP", targetPort: f.port },
      ],
    },
  } as KubeObject;
}

export function kubeDnsSlice(f: KubeDnsFacts): KubeObject {
  return {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      name: KUBE_DNS_SLICE,
      namespace: KUBE_DNS_NAMESPACE,
      labels: { [SERVICE_NAME_LABEL]: KUBE_DNS_NAME, [MANAGED_BY_LABEL]: MANAGED_BY },
    },
    addressType: "IPv4",
    endpoints: [
      {
        addresses: [f.address],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: f.nodeName,
      },
    ],
    ports: [
      { name: "dns", port: f.port, protocol: "UDP" },
      { name: "dns-tcp", port: f.port, protocol: "TCP" },
    ],
  } as KubeObject;
}

/**
 * Refuses a node whose cluster domain is not the one the kube-dns Service
 * says `hearth up` serves (pods would search names nobody answers). Passes
 * when the Service is not there or cannot be read.
 */
export async function checkClusterDomain(
  client: Pick<Client, "get">,
  domain: string,
): Promise<void> {
  const svc = await getOptional(client as Client, {
    apiVersion: "v1",
    kind: "Service",
    namespace: KUBE_DNS_NAMESPACE,
    name: KUBE_DNS_NAME,
  }).catch(() => undefined);
  const served = svc?.metadata.annotations?.[CLUSTER_DOMAIN_ANNOTATION];
  if (served !== undefined && served !== domain)
    throw new Error(
      `--cluster-domain ${domain} differs from the cluster's (${served}, on Service ${KUBE_DNS_NAMESPACE}/${KUBE_DNS_NAME}); give this node --cluster-domain ${served}`,
    );
}
