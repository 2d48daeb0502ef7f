/**
 * TypeScript shapes of the CRI `runtime.v1` messages Hearth uses (api.proto
 * beside this file), as @grpc/proto-loader hands them over: field names in
 * lowerCamelCase, enums as their names, int64 as number (nanosecond
 * timestamps lose the digits below ~256 ns), bytes as Buffer. In responses
 * every scalar is present (proto3 zero values filled in) and an absent nested
 * message is null. Only the fields Hearth reads or sets are declared; the
 * rest still travel.
 */

export type NamespaceMode = "POD" | "CONTAINER" | "NODE" | "TARGET";
export type PodSandboxState = "SANDBOX_READY" | "SANDBOX_NOTREADY";
export type ContainerState =
  | "CONTAINER_CREATED"
  | "CONTAINER_RUNNING"
  | "CONTAINER_EXITED"
  | "CONTAINER_UNKNOWN";
export type MountPropagation =
  | "PROPAGATION_PRIVATE"
  | "PROPAGATION_HOST_TO_CONTAINER"
  | "PROPAGATION_BIDIRECTIONAL";
export type Protocol = "TCP" | "UDP" | "SCTP";

export type Labels = Record<string, string>;

export interface VersionResponse {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

export interface NamespaceOption {
  network?: NamespaceMode;
  pid?: NamespaceMode;
  ipc?: NamespaceMode;
  targetId?: string;
}

export interface Int64Value {
  value: number;
}

/** `RuntimeDefault` is the proto's zero value: an absent profile is not the same as it. */
export type SecurityProfileType = "RuntimeDefault" | "Unconfined" | "Localhost";

export interface SecurityProfile {
  profileType: SecurityProfileType;
  /** Only with `Localhost`: for seccomp, the absolute path of the profile on the node. */
  localhostRef?: string;
}

export interface LinuxSandboxSecurityContext {
  namespaceOptions?: NamespaceOption;
  runAsUser?: Int64Value;
  runAsGroup?: Int64Value;
  readonlyRootfs?: boolean;
  supplementalGroups?: number[];
  /** Must be true when any container of the sandbox is privileged (containerd refuses it otherwise). */
  privileged?: boolean;
  seccomp?: SecurityProfile;
}

export interface LinuxContainerResources {
  cpuPeriod?: number;
  cpuQuota?: number;
  cpuShares?: number;
  memoryLimitInBytes?: number;
  oomScoreAdj?: number;
  cpusetCpus?: string;
  cpusetMems?: string;
  memorySwapLimitInBytes?: number;
}

export interface PodSandboxMetadata {
  name: string;
  uid: string;
  namespace: string;
  attempt?: number;
}

export interface PodSandboxConfig {
  metadata: PodSandboxMetadata;
  hostname?: string;
  /** Container log paths (ContainerConfig.logPath) are relative to this directory. */
  logDirectory?: string;
  dnsConfig?: { servers?: string[]; searches?: string[]; options?: string[] };
  portMappings?: {
    protocol?: Protocol;
    containerPort: number;
    hostPort?: number;
    hostIp?: string;
  }[];
  labels?: Labels;
  annotations?: Labels;
  linux?: {
    cgroupParent?: string;
    securityContext?: LinuxSandboxSecurityContext;
    sysctls?: Labels;
  };
}

export interface PodSandbox {
  id: string;
  metadata: PodSandboxMetadata | null;
  state: PodSandboxState;
  createdAt: number;
  labels: Labels;
  annotations: Labels;
  runtimeHandler: string;
}

export interface PodSandboxStatus extends PodSandbox {
  network: { ip: string; additionalIps: { ip: string }[] } | null;
  linux: { namespaces: { options: NamespaceOption | null } | null } | null;
}

export interface PodSandboxStatusResponse {
  status: PodSandboxStatus | null;
  info: Labels;
}

export interface PodSandboxFilter {
  id?: string;
  state?: { state: PodSandboxState };
  labelSelector?: Labels;
}

export interface ImageSpec {
  image: string;
  annotations?: Labels;
}

export interface Mount {
  containerPath: string;
  hostPath: string;
  readonly?: boolean;
  propagation?: MountPropagation;
}

export interface LinuxContainerSecurityContext {
  /** Names without the `CAP_` prefix (`NET_ADMIN`), or `ALL`; containerd adds the prefix. */
  capabilities?: { addCapabilities?: string[]; dropCapabilities?: string[] };
  privileged?: boolean;
  namespaceOptions?: NamespaceOption;
  runAsUser?: Int64Value;
  runAsGroup?: Int64Value;
  runAsUsername?: string;
  readonlyRootfs?: boolean;
  supplementalGroups?: number[];
  noNewPrivs?: boolean;
  /** Empty travels as absent (proto3): the runtime's defaults then apply. */
  maskedPaths?: string[];
  readonlyPaths?: string[];
  seccomp?: SecurityProfile;
}

export interface ContainerMetadata {
  name: string;
  attempt?: number;
}

export interface ContainerConfig {
  metadata: ContainerMetadata;
  image: ImageSpec;
  command?: string[];
  args?: string[];
  workingDir?: string;
  envs?: { key: string; value: string }[];
  mounts?: Mount[];
  labels?: Labels;
  annotations?: Labels;
  /** Relative to the sandbox's logDirectory; the runtime writes the CRI log format there. */
  logPath?: string;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
  linux?: { resources?: LinuxContainerResources; securityContext?: LinuxContainerSecurityContext };
}

export interface Container {
  id: string;
  podSandboxId: string;
  metadata: ContainerMetadata | null;
  image: ImageSpec | null;
  imageRef: string;
  state: ContainerState;
  createdAt: number;
  labels: Labels;
  annotations: Labels;
}

export interface ContainerStatus {
  id: string;
  metadata: ContainerMetadata | null;
  state: ContainerState;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  image: ImageSpec | null;
  imageRef: string;
  /** `Completed`, `Error`, `OOMKilled`, … once exited. */
  reason: string;
  message: string;
  labels: Labels;
  annotations: Labels;
  mounts: Mount[];
  logPath: string;
}

export interface ContainerStatusResponse {
  status: ContainerStatus | null;
  /** With `verbose`: `info` is containerd's JSON (pid, sandboxID, runtimeSpec, …). */
  info: Labels;
}

export interface ContainerFilter {
  id?: string;
  state?: { state: ContainerState };
  podSandboxId?: string;
  labelSelector?: Labels;
}

export interface ExecSyncResponse {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

export interface UInt64Value {
  value: number;
}

export interface ContainerStats {
  attributes: { id: string; metadata: ContainerMetadata | null; labels: Labels } | null;
  cpu: {
    timestamp: number;
    usageCoreNanoSeconds: UInt64Value | null;
    usageNanoCores: UInt64Value | null;
  } | null;
  memory: {
    timestamp: number;
    workingSetBytes: UInt64Value | null;
    availableBytes: UInt64Value | null;
    usageBytes: UInt64Value | null;
    rssBytes: UInt64Value | null;
    pageFaults: UInt64Value | null;
    majorPageFaults: UInt64Value | null;
  } | null;
  writableLayer: { timestamp: number; usedBytes: UInt64Value | null } | null;
}

export interface ContainerStatsFilter {
  id?: string;
  podSandboxId?: string;
  labelSelector?: Labels;
}

export interface AuthConfig {
  username?: string;
  password?: string;
  auth?: string;
  serverAddress?: string;
  identityToken?: string;
  registryToken?: string;
}

export interface Image {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: number;
  uid: Int64Value | null;
  username: string;
  spec: ImageSpec | null;
  pinned: boolean;
}
