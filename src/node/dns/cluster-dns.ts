/**
 * The facts every part of cluster DNS agrees on: the cluster domain
 * (`--cluster-domain`, `cluster.local` by default, as the kubelet's
 * `clusterDomain`), the `kube-dns` Service in `kube-system` and its fixed
 * ClusterIP, the tenth address of the Service CIDR (10.96.0.10 for
 * 10.96.0.0/16, as kubeadm picks it), which pods get as their nameserver.
 */
import { intToIpv4, parseIpv4Net } from "../ipv4.js";

export const DEFAULT_CLUSTER_DOMAIN = "cluster.local";
export const KUBE_DNS_NAMESPACE = "kube-system";
export const KUBE_DNS_NAME = "kube-dns";
/** On the kube-dns Service: the cluster domain `hearth up` serves, which every `hearth node` must use too. */
export const CLUSTER_DOMAIN_ANNOTATION = "hearth.io/cluster-domain";

/** The cluster DNS address of a Service CIDR: its tenth address. */
export function clusterDnsIP(serviceCIDR: string): string {
  const net = parseIpv4Net(serviceCIDR);
  if (!net || net.prefix > 28)
    throw new Error(
      `service CIDR ${JSON.stringify(serviceCIDR)} has no tenth address for the cluster DNS Service`,
    );
  return intToIpv4(net.network + 10);
}

const LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** `--cluster-domain`, checked: a DNS subdomain of lower-case labels, no trailing dot. */
export function parseClusterDomain(value: string | undefined): string {
  const domain = (value ?? DEFAULT_CLUSTER_DOMAIN).replace(/\.$/, "");
  if (domain.length > 253 || !domain.split(".").every((l) => LABEL.test(l)))
    throw new Error(
      `--cluster-domain must be a DNS subdomain such as ${DEFAULT_CLUSTER_DOMAIN}, got ${JSON.stringify(value)}`,
    );
  return domain;
}
