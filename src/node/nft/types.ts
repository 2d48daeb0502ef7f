/**
 * What the Service rules are made from: the fields of Services and
 * EndpointSlices the ruleset reads (as the apiserver serves them, so every
 * field may be missing or malformed), and the facts of the node they run on.
 */
import type { KubeObject } from "../../api/index.js";
import type { HostPortRule } from "./host-ports.js";

export const SERVICE_NAME_LABEL = "kubernetes.io/service-name";

export interface ServicePortSpec {
  name?: string;
  port?: number;
  protocol?: string;
  nodePort?: number;
}

export interface ServiceObject extends KubeObject {
  spec?: {
    type?: string;
    clusterIP?: string;
    ports?: ServicePortSpec[];
    sessionAffinity?: string;
    sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
    externalTrafficPolicy?: string;
  };
}

export interface EndpointSliceObject extends KubeObject {
  addressType?: string;
  endpoints?: {
    addresses?: string[];
    conditions?: { ready?: boolean | null };
    nodeName?: string | null;
  }[];
  ports?: { name?: string | null; port?: number | null; protocol?: string | null }[] | null;
}

export interface NodeFacts {
  /** This node's addresses that answer NodePorts (besides every local address but loopback). */
  nodeIPs: string[];
  /** This node's pod CIDR: the hairpin masquerade never leaves it. */
  podCIDR: string;
  /** The Services' CIDR: traffic to an address in it that no Service has is dropped. */
  serviceCIDR?: string;
  /** This node's name, for `externalTrafficPolicy: Local`. */
  nodeName?: string;
  /**
   * The bridge of this node's pods: a forwarded packet from the pod CIDR may
   * leave only through it, and one to the pod CIDR may come only from it, so
   * nothing of the pods is routed off the machine (the CNI bridge plugin turns
   * on IP forwarding, which would otherwise let pod traffic out unNATed).
   */
  podBridge?: string;
  /**
   * The other nodes' pod CIDRs this node routes to them (non-overlapping, see
   * podRoutes): pod traffic between the bridge and these passes the forward
   * rule above; everything else entering or leaving the pod CIDR is dropped.
   */
  routedCIDRs?: string[];
  /** The host ports of this node's pods (see host-ports.ts). */
  hostPorts?: HostPortRule[];
}

/** The chains and sets a table holds now, so a rebuild can delete the ones it no longer wants. */
export interface TableContents {
  chains: string[];
  sets: string[];
  maps: string[];
}
