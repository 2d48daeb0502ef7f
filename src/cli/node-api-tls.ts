/**
 * The node API's TLS (docs/streaming.md): a serving pair for the node's
 * address and the CA its callers' client certificates must chain to (the
 * cluster CA, which signs the apiserver's `hearth-apiserver-kubelet-client`
 * certificate). `hearth up` holds the cluster CA's key and signs the pair
 * with it; a `hearth node` holds only the CA's certificate (from its
 * kubeconfig), so it makes a CA of its own for the pair, made fresh at each
 * start, and publishes that CA on its Node for the apiserver to check
 * against — the kubelet's self-signed serving certificate, but checked.
 */
import type { NodeApiTls } from "../node/index.js";
import { createCA, issueLeaf, type KeyPair } from "../pki/index.js";
import { NODE_CLIENT_USER } from "./data-dir.js";

async function servingPair(ca: KeyPair, ip: string): Promise<KeyPair> {
  return issueLeaf(ca, {
    commonName: "hearth-node-api",
    ipAddresses: [ip],
    usage: ["server"],
    days: 365,
  });
}

/** `hearth up`'s node API: its pair from the cluster CA (made at each start), letting in the apiserver. */
export async function clusterNodeApiTls(ca: KeyPair, ip: string): Promise<NodeApiTls> {
  const serving = await servingPair(ca, ip);
  return { ...serving, clientCAPem: ca.certPem, allowedUsers: [NODE_CLIENT_USER] };
}

/** A `hearth node`'s: its pair from a CA of its own, published; callers checked against `clusterCAPem`. */
export async function ownNodeApiTls(clusterCAPem: string, ip: string): Promise<NodeApiTls> {
  const own = await createCA("hearth-node-api-ca", 365);
  const serving = await servingPair(own, ip);
  return {
    ...serving,
    clientCAPem: clusterCAPem,
    allowedUsers: [NODE_CLIENT_USER],
    servingCAPem: own.certPem,
  };
}
