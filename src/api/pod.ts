/**
 * core/v1 Pod and Node as code reads them: the subset of PodSpec, PodStatus and
 * NodeStatus that Hearth serves (see `apiserver/schemas/pod-*.ts`) and that the
 * node agent, the scheduler and the job controller act on. Objects stay open
 * records on the wire; these types name the fields code relies on.
 */
import type { NodeAffinitySpec } from "./node-affinity.js";
import type { KubeObject } from "./types.js";

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath: string;
}

export interface KeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}

export interface ResourceFieldSelector {
  containerName?: string;
  resource: string;
  divisor?: string | number;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: ObjectFieldSelector;
    resourceFieldRef?: ResourceFieldSelector;
    secretKeyRef?: KeySelector;
    configMapKeyRef?: KeySelector;
  };
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
  hostPort?: number;
  hostIP?: string;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}

export interface Probe {
  exec?: { command?: string[] };
  tcpSocket?: { port: number | string; host?: string };
  httpGet?: {
    path?: string;
    port: number | string;
    host?: string;
    scheme?: string;
    httpHeaders?: { name: string; value: string }[];
  };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
  successThreshold?: number;
}

export type Quantity = string | number;

export interface SeccompProfile {
  type: string;
  localhostProfile?: string;
}

export interface SELinuxOptions {
  user?: string;
  role?: string;
  type?: string;
  level?: string;
}

export interface WindowsSecurityContextOptions {
  gmsaCredentialSpecName?: string;
  gmsaCredentialSpec?: string;
  runAsUserName?: string;
  hostProcess?: boolean;
}

/** The settings a pod and its containers share (container values win). */
interface CommonSecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  seccompProfile?: SeccompProfile;
  appArmorProfile?: SeccompProfile;
  seLinuxOptions?: SELinuxOptions;
  windowsOptions?: WindowsSecurityContextOptions;
}

export interface SecurityContext extends CommonSecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  readOnlyRootFilesystem?: boolean;
  procMount?: string;
}

export interface PodSecurityContext extends CommonSecurityContext {
  fsGroup?: number;
  fsGroupChangePolicy?: string;
  supplementalGroups?: number[];
  supplementalGroupsPolicy?: string;
  sysctls?: { name: string; value: string }[];
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  ports?: ContainerPort[];
  resources?: { limits?: Record<string, Quantity>; requests?: Record<string, Quantity> };
  volumeMounts?: VolumeMount[];
  /** A stdin for the container's process (for `kubectl attach`); with `tty`, a terminal. */
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  imagePullPolicy?: string;
  securityContext?: SecurityContext;
}

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface DownwardAPIVolumeFile {
  path: string;
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  mode?: number;
}

export interface Volume {
  name: string;
  emptyDir?: { medium?: string; sizeLimit?: Quantity };
  secret?: { secretName?: string; items?: KeyToPath[]; optional?: boolean; defaultMode?: number };
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean; defaultMode?: number };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  downwardAPI?: { items?: DownwardAPIVolumeFile[]; defaultMode?: number };
  hostPath?: { path: string; type?: string };
}

export interface PodAffinityTerm {
  labelSelector?: {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  };
  namespaces?: string[];
  topologyKey: string;
}

/** kube's limits on a pod's resolver configuration (validation.MaxDNSNameservers and the others). */
export const MAX_DNS_NAMESERVERS = 3;
export const MAX_DNS_SEARCH_PATHS = 32;
export const MAX_DNS_SEARCH_LIST_CHARS = 2048;

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  restartPolicy?: "Always" | "OnFailure" | "Never";
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: {
    podAntiAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
      preferredDuringSchedulingIgnoredDuringExecution?: {
        weight: number;
        podAffinityTerm: PodAffinityTerm;
      }[];
    };
    nodeAffinity?: NonNullable<NodeAffinitySpec["affinity"]>["nodeAffinity"];
  };
  hostname?: string;
  subdomain?: string;
  setHostnameAsFQDN?: boolean;
  dnsPolicy?: string;
  dnsConfig?: {
    nameservers?: string[];
    searches?: string[];
    options?: { name?: string; value?: string }[];
  };
  hostAliases?: { ip?: string; hostnames?: string[] }[];
  enableServiceLinks?: boolean;
  serviceAccountName?: string;
  imagePullSecrets?: { name?: string }[];
  /** Deprecated alias of serviceAccountName. */
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  schedulerName?: string;
  tolerations?: { key?: string; operator?: string; value?: string; effect?: string }[];
  securityContext?: PodSecurityContext;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  /** false runs the pod in its own user namespace. */
  hostUsers?: boolean;
  shareProcessNamespace?: boolean;
  os?: { name: string };
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}

export interface ContainerStateRunning {
  startedAt?: string;
}

export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}

export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
}

export interface PodCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
}

export type PodPhase = "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown";

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: string;
  nominatedNodeName?: string;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface NodeCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

export interface NodeStatus {
  capacity?: Record<string, Quantity>;
  allocatable?: Record<string, Quantity>;
  conditions?: NodeCondition[];
  addresses?: { type: string; address: string }[];
  daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
  nodeInfo?: Record<string, string>;
}

export interface Node extends KubeObject {
  spec?: {
    podCIDR?: string;
    podCIDRs?: string[];
    unschedulable?: boolean;
    taints?: { key: string; value?: string; effect: string }[];
  };
  status?: NodeStatus;
}

/** The kinds' identities, for client calls. */
export const POD = { apiVersion: "v1", kind: "Pod" } as const;
export const NODE = { apiVersion: "v1", kind: "Node" } as const;

/** Annotation on a Node: the bearer token its agent's log endpoint expects from the apiserver. */
export const NODE_LOG_TOKEN_ANNOTATION = "node.hearth.dev/log-token";

/**
 * Annotation on a Node: the CA (PEM) of its agent's own serving certificate,
 * when that is not from the cluster CA (a `hearth node`, which holds no CA
 * key); the apiserver checks the node API's certificate against it.
 */
export const NODE_API_CA_ANNOTATION = "node.hearth.dev/api-ca";

/** kube's default grace period for a pod's termination, seconds. */
export const DEFAULT_TERMINATION_GRACE_SECONDS = 30;
