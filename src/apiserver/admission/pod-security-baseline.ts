/**
 * The baseline checks of the Pod Security Standards, as kube v1.32's
 * PodSecurity plugin runs them: no host namespaces, no privileged containers,
 * capabilities only from the default set, no hostPath volumes, no host ports,
 * AppArmor and seccomp only RuntimeDefault or Localhost, SELinux only the
 * container types and no user or role, the default /proc mount, only the safe
 * sysctls, and no Windows host processes. Reasons and details are kube's.
 */
import type { ObjectMeta, PodSpec, SecurityContext } from "../../api/index.js";
import {
  type Check,
  containersOf,
  containersPhrase,
  joinQuote,
  pluralize,
  sortedSet,
  type Violation,
} from "./pod-security-check.js";

const DEFAULT_CAPABILITIES = new Set([
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "KILL",
  "MKNOD",
  "NET_BIND_SERVICE",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
]);

function hostNamespaces(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const on = (["hostNetwork", "hostPID", "hostIPC"] as const)
    .filter((f) => spec[f] === true)
    .map((f) => `${f}=true`);
  return on.length > 0 ? { reason: "host namespaces", detail: on.join(", ") } : undefined;
}

function privileged(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const bad = containersOf(spec)
    .filter((c) => c.securityContext?.privileged === true)
    .map((c) => c.name);
  if (bad.length === 0) return undefined;
  return {
    reason: "privileged",
    detail: `${containersPhrase(bad)} must not set securityContext.privileged=true`,
  };
}

function capabilitiesBaseline(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const bad: string[] = [];
  const added: string[] = [];
  for (const c of containersOf(spec)) {
    const extra = (c.securityContext?.capabilities?.add ?? []).filter(
      (cap) => !DEFAULT_CAPABILITIES.has(cap),
    );
    if (extra.length > 0) bad.push(c.name);
    added.push(...extra);
  }
  if (bad.length === 0) return undefined;
  return {
    reason: "non-default capabilities",
    detail: `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`,
  };
}

function hostPathVolumes(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const bad = (spec.volumes ?? []).filter((v) => v.hostPath !== undefined).map((v) => v.name);
  if (bad.length === 0) return undefined;
  return {
    reason: "hostPath volumes",
    detail: `${pluralize("volume", "volumes", bad.length)} ${joinQuote(bad)}`,
  };
}

function hostPorts(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of containersOf(spec)) {
    const used = (c.ports ?? []).filter((p) => (p.hostPort ?? 0) !== 0).map((p) => `${p.hostPort}`);
    if (used.length > 0) bad.push(c.name);
    ports.push(...used);
  }
  if (bad.length === 0) return undefined;
  const distinct = sortedSet(ports);
  return {
    reason: "hostPort",
    detail: `${containersPhrase(bad)} ${pluralize("uses", "use", bad.length)} ${pluralize("hostPort", "hostPorts", distinct.length)} ${distinct.join(", ")}`,
  };
}

/** `pod and containers "a", "b"`: who set a forbidden value. */
function setters(pod: boolean, containers: string[]): string[] {
  return [
    ...(pod ? ["pod"] : []),
    ...(containers.length > 0 ? [containersPhrase(containers)] : []),
  ];
}

const ANNOTATION_APPARMOR_PREFIX = "container.apparmor.security.beta.kubernetes.io/";

function appArmorProfile(meta: ObjectMeta, spec: PodSpec): Violation | undefined {
  const allowed = (t: string) => t === "RuntimeDefault" || t === "Localhost";
  const values: string[] = [];
  const podType = spec.securityContext?.appArmorProfile?.type;
  const podBad = podType !== undefined && !allowed(podType);
  if (podBad) values.push(podType);
  const bad: string[] = [];
  for (const c of containersOf(spec)) {
    const t = c.securityContext?.appArmorProfile?.type;
    if (t !== undefined && !allowed(t)) {
      bad.push(c.name);
      values.push(t);
    }
  }
  const who = setters(podBad, bad);
  const valueList = sortedSet(values);
  const annotations = Object.entries(meta.annotations ?? {})
    .filter(
      ([k, v]) =>
        k.startsWith(ANNOTATION_APPARMOR_PREFIX) &&
        !(v === "" || v === "runtime/default" || v.startsWith("localhost/")),
    )
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .sort();
  if (annotations.length > 0) {
    valueList.push(...annotations);
    who.push(pluralize("annotation", "annotations", annotations.length));
  }
  if (who.length === 0) return undefined;
  return {
    reason: pluralize(
      "forbidden AppArmor profile",
      "forbidden AppArmor profiles",
      valueList.length,
    ),
    detail: `${who.join(" and ")} must not set AppArmor profile type to ${joinQuote(valueList)}`,
  };
}

const SELINUX_TYPES_1_0 = new Set(["", "container_t", "container_init_t", "container_kvm_t"]);
const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES_1_0, "container_engine_t"]);

function seLinuxOptions(types: Set<string>) {
  return (_: ObjectMeta, spec: PodSpec): Violation | undefined => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (o: SecurityContext["seLinuxOptions"]): boolean => {
      if (!o) return true;
      let ok = true;
      if (!types.has(o.type ?? "")) {
        ok = false;
        badTypes.push(o.type ?? "");
      }
      if (o.user) {
        ok = false;
        setUser = true;
      }
      if (o.role) {
        ok = false;
        setRole = true;
      }
      return ok;
    };
    const podBad = !valid(spec.securityContext?.seLinuxOptions);
    const bad = containersOf(spec)
      .filter((c) => !valid(c.securityContext?.seLinuxOptions))
      .map((c) => c.name);
    const who = setters(podBad, bad);
    if (who.length === 0) return undefined;
    const data: string[] = [];
    const distinct = sortedSet(badTypes);
    if (distinct.length > 0)
      data.push(`${pluralize("type", "types", distinct.length)} ${joinQuote(distinct)}`);
    if (setUser) data.push("user may not be set");
    if (setRole) data.push("role may not be set");
    return {
      reason: "seLinuxOptions",
      detail: `${who.join(" and ")} set forbidden securityContext.seLinuxOptions: ${data.join("; ")}`,
    };
  };
}

function procMount(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of containersOf(spec)) {
    const t = c.securityContext?.procMount;
    if (t !== undefined && t !== "Default") {
      bad.push(c.name);
      types.push(t);
    }
  }
  if (bad.length === 0) return undefined;
  return {
    reason: "procMount",
    detail: `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  };
}

const SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_PREFIX = "container.seccomp.security.alpha.kubernetes.io/";

/** Before v1.19 the seccomp profile was set by annotations. */
function seccompAnnotations(meta: ObjectMeta, spec: PodSpec): Violation | undefined {
  const annotations = meta.annotations ?? {};
  const valid = (v: string) =>
    v === "runtime/default" || v === "docker/default" || v.startsWith("localhost/");
  const forbidden: string[] = [];
  const pod = annotations[SECCOMP_POD_ANNOTATION];
  if (pod !== undefined && !valid(pod))
    forbidden.push(`${SECCOMP_POD_ANNOTATION}=${JSON.stringify(pod)}`);
  for (const c of containersOf(spec)) {
    const key = SECCOMP_CONTAINER_PREFIX + c.name;
    const v = annotations[key];
    if (v !== undefined && !valid(v)) forbidden.push(`${key}=${JSON.stringify(v)}`);
  }
  if (forbidden.length === 0) return undefined;
  const list = sortedSet(forbidden);
  return {
    reason: "seccompProfile",
    detail: `forbidden ${pluralize("annotation", "annotations", list.length)} ${list.join(", ")}`,
  };
}

export const validSeccomp = (t: string) => t === "Localhost" || t === "RuntimeDefault";

function seccompBaseline(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const values: string[] = [];
  const podType = spec.securityContext?.seccompProfile?.type;
  const podBad = podType !== undefined && !validSeccomp(podType);
  if (podBad) values.push(podType);
  const bad: string[] = [];
  for (const c of containersOf(spec)) {
    const t = c.securityContext?.seccompProfile?.type;
    if (t !== undefined && !validSeccomp(t)) {
      bad.push(c.name);
      values.push(t);
    }
  }
  const who = setters(podBad, bad);
  if (who.length === 0) return undefined;
  return {
    reason: "seccompProfile",
    detail: `${who.join(" and ")} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`,
  };
}

const SYSCTLS_1_0 = [
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_unprivileged_port_start",
];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, "net.ipv4.ip_local_reserved_ports"];
const SYSCTLS_1_29 = [
  ...SYSCTLS_1_27,
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"];

function sysctls(allowed: string[]) {
  const safe = new Set(allowed);
  return (_: ObjectMeta, spec: PodSpec): Violation | undefined => {
    const bad = (spec.securityContext?.sysctls ?? [])
      .map((s) => s.name)
      .filter((n) => !safe.has(n));
    return bad.length > 0 ? { reason: "forbidden sysctls", detail: bad.join(", ") } : undefined;
  };
}

function windowsHostProcess(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const bad = containersOf(spec)
    .filter((c) => c.securityContext?.windowsOptions?.hostProcess === true)
    .map((c) => c.name);
  const who = setters(spec.securityContext?.windowsOptions?.hostProcess === true, bad);
  if (who.length === 0) return undefined;
  return {
    reason: "hostProcess",
    detail: `${who.join(" and ")} must not set securityContext.windowsOptions.hostProcess=true`,
  };
}

const since = (minor: number, check: Check["versions"][number]["check"]) => ({
  minimumMinor: minor,
  check,
});

export const BASELINE_CHECKS: Check[] = [
  { id: "appArmorProfile", level: "baseline", versions: [since(0, appArmorProfile)] },
  { id: "capabilities_baseline", level: "baseline", versions: [since(0, capabilitiesBaseline)] },
  { id: "hostNamespaces", level: "baseline", versions: [since(0, hostNamespaces)] },
  { id: "hostPathVolumes", level: "baseline", versions: [since(0, hostPathVolumes)] },
  { id: "hostPorts", level: "baseline", versions: [since(0, hostPorts)] },
  { id: "privileged", level: "baseline", versions: [since(0, privileged)] },
  { id: "procMount", level: "baseline", versions: [since(0, procMount)] },
  {
    id: "seLinuxOptions",
    level: "baseline",
    versions: [
      since(0, seLinuxOptions(SELINUX_TYPES_1_0)),
      since(31, seLinuxOptions(SELINUX_TYPES_1_31)),
    ],
  },
  {
    id: "seccompProfile_baseline",
    level: "baseline",
    versions: [since(0, seccompAnnotations), since(19, seccompBaseline)],
  },
  {
    id: "sysctls",
    level: "baseline",
    versions: [
      since(0, sysctls(SYSCTLS_1_0)),
      since(27, sysctls(SYSCTLS_1_27)),
      since(29, sysctls(SYSCTLS_1_29)),
      since(32, sysctls(SYSCTLS_1_32)),
    ],
  },
  { id: "windowsHostProcess", level: "baseline", versions: [since(0, windowsHostProcess)] },
];
