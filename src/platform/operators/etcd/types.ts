/**
 * The etcd operator's kinds (`etcd.hearth.io/v1alpha1`), its labels and names:
 * EtcdCluster (what the user asks for) and EtcdMember (one etcd member, owning
 * its Pod, PVC and Service, all named after the member).
 */
import type { KubeObject } from "../../../api/index.js";
import type { Condition } from "../../../runtime/index.js";

export const ETCD_GROUP = "etcd.hearth.io";
export const ETCD_API_VERSION = `${ETCD_GROUP}/v1alpha1`;
export const MANAGER = "hearth-etcd-operator";
export const MEMBER_FINALIZER = "etcd.hearth.io/member-cleanup";

export const LABEL_CLUSTER = "etcd.hearth.io/cluster";
export const LABEL_NAME = "app.kubernetes.io/name";
export const LABEL_INSTANCE = "app.kubernetes.io/instance";
export const LABEL_MANAGED_BY = "app.kubernetes.io/managed-by";
export const LABEL_COMPONENT = "app.kubernetes.io/component";
/** `voter`, `learner` (as etcd lists the member) or `leaving` on a member's pod; the client Service selects voters. */
export const LABEL_ROLE = "etcd.hearth.io/role";

export const CLIENT_PORT = 2379;
export const PEER_PORT = 2380;
export const METRICS_PORT = 2381;

export interface SecretRef {
  name: string;
}

export interface EtcdClusterSpec {
  replicas: number;
  storage: { size: string; storageClassName?: string };
  tls: {
    client: { caSecretRef: SecretRef; serverSecretRef: SecretRef; clientSecretRef: SecretRef };
    peer: { caSecretRef: SecretRef; secretRef: SecretRef };
  };
  auth?: { enabled?: boolean };
  options?: Record<string, string | number>;
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
}

export interface MemberStatus {
  name: string;
  id?: string;
  ready: boolean;
  learner: boolean;
}

export interface EtcdCluster extends KubeObject {
  spec: EtcdClusterSpec;
  status?: {
    observedGeneration?: number;
    /** `<ready voters>/<replicas>`, for `kubectl get`. */
    ready?: string;
    readyMembers?: number;
    replicas?: number;
    members?: MemberStatus[];
    clusterID?: string;
    authEnabled?: boolean;
    conditions?: Condition[];
  };
}

export interface EtcdMemberSpec {
  /** The EtcdCluster this member belongs to. */
  cluster: string;
  /** Set by the cluster once the member's certificates cover its address; the pod waits for it. */
  initialCluster?: string;
  initialClusterState?: "new" | "existing";
}

export interface EtcdMember extends KubeObject {
  spec: EtcdMemberSpec;
  status?: { ready?: boolean; podIP?: string; conditions?: Condition[] };
}

/** The cache's scope of the operator's pods: only its own are watched. */
export const OPERATOR_PODS = { labelSelector: `${LABEL_MANAGED_BY}=${MANAGER}` };

/** Labels every object of cluster `cluster` carries. */
export function clusterLabels(cluster: string): Record<string, string> {
  return {
    [LABEL_NAME]: "etcd",
    [LABEL_INSTANCE]: cluster,
    [LABEL_MANAGED_BY]: MANAGER,
    [LABEL_CLUSTER]: cluster,
  };
}

/** Labels of member `member`'s Pod, PVC and Service. */
export function memberLabels(cluster: string, member: string): Record<string, string> {
  return { ...clusterLabels(cluster), [LABEL_COMPONENT]: member };
}

export const clientServiceName = (cluster: string) => `${cluster}-client`;
export const dataClaimName = (member: string) => `data-${member}`;

/** The peer URL of a member at `address` (its Service's ClusterIP). */
export const peerUrl = (address: string) => `https://${address}:${PEER_PORT}`;
export const clientUrl = (address: string) => `https://${address}:${CLIENT_PORT}`;
