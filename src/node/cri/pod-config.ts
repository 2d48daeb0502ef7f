/**
 * A Pod as CRI configuration: the PodSandboxConfig of the pod and the
 * ContainerConfig of each container, with the labels and annotations the
 * kubelet puts on them (kuberuntime_sandbox.go, kuberuntime_container.go,
 * kuberuntime_labels.go) so a restarted agent finds its pods through CRI
 * alone. Pure functions: the agent supplies what only it knows (log paths,
 * cgroup parent, DNS, the expanded environment and the prepared mounts).
 * Resources and security contexts are in pod-resources.ts and
 * pod-security.ts, re-exported here.
 */
import { type Container, DEFAULT_TERMINATION_GRACE_SECONDS, type Pod } from "../../api/index.js";
import { podHostname } from "../container-start.js";
import { DEFAULT_CLUSTER_DOMAIN } from "../dns/cluster-dns.js";
import type {
  ContainerConfig,
  Labels,
  MountPropagation,
  PodSandboxConfig,
  Protocol,
} from "./cri-types.js";
import { containerResources } from "./pod-resources.js";
import {
  containerSecurityContext,
  type SecurityOptions,
  sandboxSecurityContext,
} from "./pod-security.js";

export * from "./pod-resources.js";
export * from "./pod-security.js";

export const POD_NAME_LABEL = "io.kubernetes.pod.name";
export const POD_NAMESPACE_LABEL = "io.kubernetes.pod.namespace";
export const POD_UID_LABEL = "io.kubernetes.pod.uid";
export const CONTAINER_NAME_LABEL = "io.kubernetes.container.name";
export const POD_TERMINATION_GRACE_ANNOTATION = "io.kubernetes.pod.terminationGracePeriod";
export const POD_DELETION_GRACE_ANNOTATION = "io.kubernetes.pod.deletionGracePeriod";
export const CONTAINER_HASH_ANNOTATION = "io.kubernetes.container.hash";
export const CONTAINER_RESTART_COUNT_ANNOTATION = "io.kubernetes.container.restartCount";
export const TERMINATION_MESSAGE_PATH_ANNOTATION = "io.kubernetes.container.terminationMessagePath";
export const TERMINATION_MESSAGE_POLICY_ANNOTATION =
  "io.kubernetes.container.terminationMessagePolicy";
export const CONTAINER_PORTS_ANNOTATION = "io.kubernetes.container.ports";

/** The kernel's nodename holds 64 characters. */
const FQDN_MAX_LENGTH = 64;

/** Fields of the core/v1 types that api/pod.ts does not name (yet); read as kube defines them. */
type VolumeMount = NonNullable<Container["volumeMounts"]>[number];
type ContainerPort = NonNullable<Container["ports"]>[number];
type KubeContainer = Omit<Container, "volumeMounts"> & {
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  volumeMounts?: (VolumeMount & { mountPropagation?: string })[];
};

export interface SandboxFacts {
  /** Absolute directory where CRI writes the containers' logs (log paths are relative to it). */
  logDirectory: string;
  /** cgroup parent of the pod (cgroupfs path, e.g. "/hearth-1a2b3c4d/pod<uid>"); omitted: runtime default. */
  cgroupParent?: string;
  /** resolv.conf for the pod (pod-dns.ts); omitted: the runtime copies the host's. */
  dns?: { servers: string[]; searches: string[]; options: string[] };
  /** The cluster domain of the FQDN hostname (`--cluster-domain`; default cluster.local). */
  clusterDomain?: string;
  attempt?: number;
}

export interface ContainerFacts {
  attempt: number;
  /** Relative to the sandbox's logDirectory, e.g. "<container>/<attempt>.log". */
  logPath: string;
  /** Image reference as resolved/pulled (CRI image spec). */
  image: string;
  /** Environment, already expanded by the agent (src/node/env.ts). */
  env: ReadonlyMap<string, string>;
  /** command/args already $(VAR)-expanded; undefined → image's entrypoint/cmd (CRI semantics). */
  command?: string[];
  args?: string[];
  /**
   * Host paths bound into the container. Propagation, when not given, is the
   * `mountPropagation` of the volumeMount at the same target (None if none).
   */
  mounts: { source: string; target: string; readOnly: boolean; propagation?: MountPropagation }[];
}

/** What podSandboxConfig wrote on a sandbox, read back. */
export interface SandboxPod {
  uid: string;
  namespace: string;
  name: string;
  /** The pod's terminationGracePeriodSeconds when the sandbox was made (kube's default, 30, if unset). */
  terminationGracePeriodSeconds: number;
}

/** The labels that name the pod on its sandbox and on each of its containers. */
function podLabels(pod: Pod): Labels {
  return {
    [POD_NAME_LABEL]: pod.metadata.name ?? "",
    [POD_NAMESPACE_LABEL]: pod.metadata.namespace ?? "",
    [POD_UID_LABEL]: pod.metadata.uid ?? "",
  };
}

function graceAnnotations(pod: Pod): Labels {
  const out: Labels = {};
  const grace = pod.spec.terminationGracePeriodSeconds;
  if (grace !== undefined) out[POD_TERMINATION_GRACE_ANNOTATION] = String(grace);
  const deletion = pod.metadata.deletionGracePeriodSeconds;
  if (deletion !== undefined) out[POD_DELETION_GRACE_ANNOTATION] = String(deletion);
  return out;
}

/**
 * The sandbox's hostname, as the kubelet's GeneratePodHostNameAndDomain and
 * GetNodenameForKernel: undefined in the host's network namespace (it shares
 * the node's UTS namespace), the FQDN with setHostnameAsFQDN and a
 * subdomain, else spec.hostname or the pod name cut to 63.
 */
export function sandboxHostname(
  pod: Pod,
  clusterDomain: string = DEFAULT_CLUSTER_DOMAIN,
): string | undefined {
  if (pod.spec.hostNetwork) return undefined;
  const host = podHostname(pod);
  const spec = pod.spec as Pod["spec"] & { setHostnameAsFQDN?: boolean };
  if (!spec.subdomain || spec.setHostnameAsFQDN !== true) return host;
  const fqdn = `${host}.${spec.subdomain}.${pod.metadata.namespace}.svc.${clusterDomain}`;
  if (fqdn.length > FQDN_MAX_LENGTH)
    throw new Error(
      `failed to construct FQDN from pod hostname and cluster domain, FQDN ${fqdn} is too long (${FQDN_MAX_LENGTH} characters is the max, ${fqdn.length} characters requested)`,
    );
  return fqdn;
}

function portMappings(pod: Pod): PodSandboxConfig["portMappings"] {
  // The kubelet sends every port; containerd hands CNI only those with a host
  // port, so those are the ones that mean anything.
  const ports: ContainerPort[] = (pod.spec.containers ?? []).flatMap((c) => c.ports ?? []);
  const mapped = ports.filter((p) => (p.hostPort ?? 0) > 0);
  if (mapped.length === 0) return undefined;
  return mapped.map((p) => ({
    protocol: (p.protocol ?? "TCP") as Protocol,
    containerPort: p.containerPort,
    hostPort: p.hostPort,
    ...(p.hostIP ? { hostIp: p.hostIP } : {}),
  }));
}

export function podSandboxConfig(pod: Pod, facts: SandboxFacts): PodSandboxConfig {
  const hostname = sandboxHostname(pod, facts.clusterDomain);
  const sysctls = Object.fromEntries(
    (pod.spec.securityContext?.sysctls ?? []).map((s) => [s.name, s.value]),
  );
  const config: PodSandboxConfig = {
    metadata: {
      name: pod.metadata.name ?? "",
      namespace: pod.metadata.namespace ?? "",
      uid: pod.metadata.uid ?? "",
      attempt: facts.attempt ?? 0,
    },
    ...(hostname === undefined ? {} : { hostname }),
    logDirectory: facts.logDirectory,
    labels: { ...pod.metadata.labels, ...podLabels(pod) },
    annotations: { ...pod.metadata.annotations, ...graceAnnotations(pod) },
    linux: {
      ...(facts.cgroupParent ? { cgroupParent: facts.cgroupParent } : {}),
      securityContext: sandboxSecurityContext(pod),
      sysctls,
    },
  };
  if (facts.dns) config.dnsConfig = { ...facts.dns };
  const ports = portMappings(pod);
  if (ports) config.portMappings = ports;
  return config;
}

/** Reads back what podSandboxConfig put on a sandbox; undefined if not a pod's. */
export function podOfSandbox(labels: Labels, annotations: Labels): SandboxPod | undefined {
  const uid = labels[POD_UID_LABEL];
  const namespace = labels[POD_NAMESPACE_LABEL];
  const name = labels[POD_NAME_LABEL];
  if (!uid || !namespace || !name) return undefined;
  const grace = Number.parseInt(annotations[POD_TERMINATION_GRACE_ANNOTATION] ?? "", 10);
  const terminationGracePeriodSeconds =
    Number.isInteger(grace) && grace >= 0 ? grace : DEFAULT_TERMINATION_GRACE_SECONDS;
  return { uid, namespace, name, terminationGracePeriodSeconds };
}

/** FNV-1a (32 bit) of the container's JSON, in hex: the kubelet's change detector, not its exact value. */
export function containerHash(c: Container): string {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(JSON.stringify(c))) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

const PROPAGATION: Record<string, MountPropagation> = {
  None: "PROPAGATION_PRIVATE",
  HostToContainer: "PROPAGATION_HOST_TO_CONTAINER",
  Bidirectional: "PROPAGATION_BIDIRECTIONAL",
};

function containerAnnotations(pod: Pod, c: KubeContainer, restartCount: number): Labels {
  const out: Labels = {
    [CONTAINER_HASH_ANNOTATION]: containerHash(c),
    [CONTAINER_RESTART_COUNT_ANNOTATION]: String(restartCount),
    // kube-apiserver's defaults for the two; Hearth's apiserver leaves them unset.
    [TERMINATION_MESSAGE_PATH_ANNOTATION]: c.terminationMessagePath ?? "/dev/termination-log",
    [TERMINATION_MESSAGE_POLICY_ANNOTATION]: c.terminationMessagePolicy ?? "File",
    ...graceAnnotations(pod),
  };
  if (c.ports?.length) out[CONTAINER_PORTS_ANNOTATION] = JSON.stringify(c.ports);
  return out;
}

export function containerConfig(
  pod: Pod,
  c: Container,
  facts: ContainerFacts,
  opts: SecurityOptions = {},
): ContainerConfig {
  const kc = c as KubeContainer;
  const propagationAt = (target: string) =>
    PROPAGATION[kc.volumeMounts?.find((m) => m.mountPath === target)?.mountPropagation ?? "None"] ??
    "PROPAGATION_PRIVATE";
  const config: ContainerConfig = {
    metadata: { name: c.name, attempt: facts.attempt },
    image: { image: facts.image },
    envs: [...facts.env].map(([key, value]) => ({ key, value })),
    mounts: facts.mounts.map((m) => ({
      containerPath: m.target,
      hostPath: m.source,
      readonly: m.readOnly,
      propagation: m.propagation ?? propagationAt(m.target),
    })),
    labels: { ...podLabels(pod), [CONTAINER_NAME_LABEL]: c.name },
    annotations: containerAnnotations(pod, kc, facts.attempt),
    logPath: facts.logPath,
    stdin: kc.stdin === true,
    stdinOnce: kc.stdinOnce === true,
    tty: kc.tty === true,
    linux: {
      resources: containerResources(pod, c),
      securityContext: containerSecurityContext(pod, c, opts),
    },
  };
  if (facts.command) config.command = [...facts.command];
  if (facts.args) config.args = [...facts.args];
  if (c.workingDir) config.workingDir = c.workingDir;
  return config;
}
