/**
 * Cluster DNS (docs/dns.md): the server that answers pods' queries for the
 * cluster zone from the API's Services and EndpointSlices and forwards the
 * rest to the host's resolvers, the kube-dns Service it is reached at, and
 * the facts (cluster domain, cluster DNS address, host resolv.conf) the
 * node agent gives pods.
 */
export {
  CLUSTER_DOMAIN_ANNOTATION,
  clusterDnsIP,
  DEFAULT_CLUSTER_DOMAIN,
  KUBE_DNS_NAME,
  KUBE_DNS_NAMESPACE,
  parseClusterDomain,
} from "./cluster-dns.js";
export { type ClusterDnsOptions, startClusterDns, upstreamsOf } from "./cluster-dns-server.js";
export { DnsServer } from "./dns-server.js";
export { forwardQuery, type Upstream } from "./forwarder.js";
export {
  checkClusterDomain,
  KUBE_DNS_SLICE,
  kubeDnsService,
  kubeDnsSlice,
} from "./kube-dns-objects.js";
export { lookup } from "./lookup.js";
export {
  DEFAULT_RESOLV_CONF,
  parseResolvConf,
  type ResolvConf,
  readResolvConf,
} from "./resolv-conf.js";
export { type Responder, respond } from "./respond.js";
export { buildZone, type Zone } from "./zone.js";
