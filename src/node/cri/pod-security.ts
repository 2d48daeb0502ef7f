/**
 * A pod's and a container's `securityContext` as CRI security contexts, the
 * way the kubelet derives them (security_context.go,
 * kuberuntime/security_context.go, kuberuntime_sandbox.go): the container's
 * settings over the pod's, namespaces from hostNetwork/hostPID/hostIPC, the
 * seccomp profile, capabilities, and the runAsNonRoot check CRI cannot do.
 */
import { join } from "node:path";
import type {
  Container,
  Pod,
  PodSecurityContext,
  SeccompProfile,
  SecurityContext,
} from "../../api/index.js";
import type {
  LinuxContainerSecurityContext,
  LinuxSandboxSecurityContext,
  NamespaceOption,
  SecurityProfile,
} from "./cri-types.js";

/** Where `Localhost` seccomp profiles live, as the kubelet's `<root-dir>/seccomp`. */
export const DEFAULT_SECCOMP_PROFILE_ROOT = "/var/lib/kubelet/seccomp";

export interface SecurityOptions {
  /** Directory `localhostProfile` names are relative to; default DEFAULT_SECCOMP_PROFILE_ROOT. */
  seccompProfileRoot?: string;
}

/** NODE for a host namespace, else POD; pid is CONTAINER unless hostPID or shareProcessNamespace. */
export function namespaceOptions(pod: Pod): NamespaceOption {
  const spec = pod.spec;
  return {
    network: spec.hostNetwork ? "NODE" : "POD",
    pid: spec.hostPID ? "NODE" : spec.shareProcessNamespace ? "POD" : "CONTAINER",
    ipc: spec.hostIPC ? "NODE" : "POD",
  };
}

/** True when any container, init containers included, asks to be privileged. */
export function hasPrivilegedContainer(pod: Pod): boolean {
  return [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])].some(
    (c) => c.securityContext?.privileged === true,
  );
}

function supplementalGroups(sc: PodSecurityContext | undefined): number[] | undefined {
  const groups = [
    ...(sc?.fsGroup === undefined ? [] : [sc.fsGroup]),
    ...(sc?.supplementalGroups ?? []),
  ];
  return groups.length > 0 ? groups : undefined;
}

/**
 * The sandbox's: pod-level user, group and groups, host namespaces, and
 * privileged when a container will be. The sandbox ("pause") process always
 * runs under the runtime's default seccomp profile, as the kubelet forces it
 * (kubernetes#84623), whatever the containers run under.
 */
export function sandboxSecurityContext(pod: Pod): LinuxSandboxSecurityContext {
  const sc = pod.spec.securityContext;
  const out: LinuxSandboxSecurityContext = {
    namespaceOptions: namespaceOptions(pod),
    privileged: hasPrivilegedContainer(pod),
    seccomp: { profileType: "RuntimeDefault" },
  };
  if (sc?.runAsUser !== undefined) out.runAsUser = { value: sc.runAsUser };
  if (sc?.runAsGroup !== undefined) out.runAsGroup = { value: sc.runAsGroup };
  const groups = supplementalGroups(sc);
  if (groups) out.supplementalGroups = groups;
  return out;
}

/**
 * kube's DetermineEffectiveSecurityContext: the container's settings, with
 * user, group, runAsNonRoot and seccomp taken from the pod where the
 * container leaves them unset.
 */
export function effectiveSecurityContext(pod: Pod, c: Container): SecurityContext {
  const podSc = pod.spec.securityContext ?? {};
  const sc: SecurityContext = { ...c.securityContext };
  sc.runAsUser ??= podSc.runAsUser;
  sc.runAsGroup ??= podSc.runAsGroup;
  sc.runAsNonRoot ??= podSc.runAsNonRoot;
  sc.seccompProfile ??= podSc.seccompProfile;
  return sc;
}

/**
 * The seccomp profile. Unset on both container and pod means RuntimeDefault,
 * not the kubelet's historical Unconfined: Hearth runs as a kubelet with
 * `--seccomp-default`, since pods must run under the runtime's default
 * profile rather than as host root (issue 14). An explicit Unconfined still
 * unconfines; Pod Security admission decides who may ask for it.
 */
export function seccompProfile(
  profile: SeccompProfile | undefined,
  root = DEFAULT_SECCOMP_PROFILE_ROOT,
): SecurityProfile {
  if (profile === undefined || profile.type === "RuntimeDefault")
    return { profileType: "RuntimeDefault" };
  if (profile.type === "Localhost" && profile.localhostProfile)
    return { profileType: "Localhost", localhostRef: join(root, profile.localhostProfile) };
  return { profileType: "Unconfined" };
}

/**
 * A kube capability name as containerd 1.6 wants it: upper case without the
 * `CAP_` prefix, which containerd adds itself. Passed as written, a pod's
 * `CAP_NET_ADMIN` is silently not added (and a `CAP_CHOWN`
 * silently not dropped): test/e2e/cri-config.test.ts shows both.
 */
export function criCapability(name: string): string {
  const upper = name.toUpperCase();
  return upper.startsWith("CAP_") ? upper.slice(4) : upper;
}

/**
 * The container's. Fields the pod leaves unset stay unset, so the runtime's
 * defaults apply: its default capability set, masked and read-only /proc
 * paths (procMount Unmasked asks for none, as the kubelet does, but an empty
 * list travels as an absent one, so containerd 1.6 keeps its defaults), and
 * the image's user when no runAsUser is given.
 */
export function containerSecurityContext(
  pod: Pod,
  c: Container,
  opts: SecurityOptions = {},
): LinuxContainerSecurityContext {
  const sc = effectiveSecurityContext(pod, c);
  const out: LinuxContainerSecurityContext = {
    namespaceOptions: namespaceOptions(pod),
    privileged: sc.privileged === true,
    readonlyRootfs: sc.readOnlyRootFilesystem === true,
    // Only an explicit false: unset keeps the runtime's (and kube's) default of allowing it.
    noNewPrivs: sc.allowPrivilegeEscalation === false,
    seccomp: seccompProfile(sc.seccompProfile, opts.seccompProfileRoot),
  };
  if (sc.capabilities)
    out.capabilities = {
      addCapabilities: (sc.capabilities.add ?? []).map(criCapability),
      dropCapabilities: (sc.capabilities.drop ?? []).map(criCapability),
    };
  if (sc.runAsUser !== undefined) out.runAsUser = { value: sc.runAsUser };
  if (sc.runAsGroup !== undefined) out.runAsGroup = { value: sc.runAsGroup };
  const groups = supplementalGroups(pod.spec.securityContext);
  if (groups) out.supplementalGroups = groups;
  if (sc.procMount === "Unmasked") {
    out.maskedPaths = [];
    out.readonlyPaths = [];
  }
  return out;
}

/** True when the effective securityContext says runAsNonRoot: the agent must check the user. */
export function mustRunAsNonRoot(pod: Pod, c: Container): boolean {
  return effectiveSecurityContext(pod, c).runAsNonRoot === true;
}

/** The user an image runs as, from CRI's ImageStatus (`uid` when numeric, else `username`). */
export interface ImageUser {
  uid?: number;
  username?: string;
}

/**
 * kubelet's verifyRunAsNonRoot: why the container may not start under
 * runAsNonRoot (the message for a CreateContainerConfigError), or undefined
 * when it may. An image with no user runs as root.
 */
export function runAsNonRootViolation(
  pod: Pod,
  c: Container,
  image: ImageUser,
): string | undefined {
  if (!mustRunAsNonRoot(pod, c)) return undefined;
  const who = `pod: "${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})", container: ${c.name}`;
  const user = effectiveSecurityContext(pod, c).runAsUser;
  if (user !== undefined)
    return user === 0 ? `container's runAsUser breaks non-root policy (${who})` : undefined;
  if (image.uid !== undefined)
    return image.uid === 0
      ? `container has runAsNonRoot and image will run as root (${who})`
      : undefined;
  if (image.username)
    return `container has runAsNonRoot and image has non-numeric user (${image.username}), cannot verify user is non-root (${who})`;
  return `container has runAsNonRoot and image will run as root (${who})`;
}
