/**
 * The restricted checks of the Pod Security Standards (on top of baseline), as
 * kube v1.32's PodSecurity plugin runs them: only the ephemeral and projected
 * volume types, no privilege escalation, run as non-root and not as uid 0,
 * a RuntimeDefault or Localhost seccomp profile, and capabilities dropped to
 * nothing but NET_BIND_SERVICE. Three of them replace a baseline check
 * (hostPath volumes, capabilities, seccomp). Windows pods skip the Linux-only
 * checks from v1.25.
 */
import type { ObjectMeta, PodSpec } from "../../api/index.js";
import { validSeccomp } from "./pod-security-baseline.js";
import {
  type Check,
  type CheckPod,
  containersOf,
  containersPhrase,
  joinQuote,
  pluralize,
  sortedSet,
  type Violation,
} from "./pod-security-check.js";

/** From v1.25 a Windows pod is not held to the Linux-only checks. */
function linuxOnly(check: CheckPod): CheckPod {
  return (meta, spec) => (spec.os?.name === "windows" ? undefined : check(meta, spec));
}

const ALLOWED_VOLUMES = [
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "image",
  "persistentVolumeClaim",
  "projected",
  "secret",
];
const RESTRICTED_VOLUMES = [
  "hostPath",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "gitRepo",
  "nfs",
  "iscsi",
  "glusterfs",
  "rbd",
  "flexVolume",
  "cinder",
  "cephfs",
  "flocker",
  "fc",
  "azureFile",
  "vsphereVolume",
  "quobyte",
  "azureDisk",
  "portworxVolume",
  "photonPersistentDisk",
  "scaleIO",
  "storageos",
];

function restrictedVolumes(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of spec.volumes ?? []) {
    const source = v as unknown as Record<string, unknown>;
    if (ALLOWED_VOLUMES.some((t) => source[t] !== undefined && source[t] !== null)) continue;
    bad.push(v.name);
    types.push(RESTRICTED_VOLUMES.find((t) => source[t] !== undefined) ?? "unknown");
  }
  if (bad.length === 0) return undefined;
  const distinct = sortedSet(types);
  return {
    reason: "restricted volume types",
    detail: `${pluralize("volume", "volumes", bad.length)} ${joinQuote(bad)} ${pluralize("uses", "use", bad.length)} ${pluralize("restricted volume type", "restricted volume types", distinct.length)} ${joinQuote(distinct)}`,
  };
}

function allowPrivilegeEscalation(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const bad = containersOf(spec)
    .filter((c) => c.securityContext?.allowPrivilegeEscalation !== false)
    .map((c) => c.name);
  if (bad.length === 0) return undefined;
  return {
    reason: "allowPrivilegeEscalation != false",
    detail: `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`,
  };
}

function runAsNonRoot(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const who: string[] = [];
  const pod = spec.securityContext?.runAsNonRoot;
  if (pod === false) who.push("pod");
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(spec)) {
    const v = c.securityContext?.runAsNonRoot;
    if (v === false) explicit.push(c.name);
    else if (v === undefined && pod !== true) implicit.push(c.name);
  }
  if (explicit.length > 0) who.push(containersPhrase(explicit));
  const reason = "runAsNonRoot != true";
  if (who.length > 0)
    return {
      reason,
      detail: `${who.join(" and ")} must not set securityContext.runAsNonRoot=false`,
    };
  if (implicit.length > 0)
    return {
      reason,
      detail: `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`,
    };
  return undefined;
}

function runAsUser(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const who: string[] = [];
  if (spec.securityContext?.runAsUser === 0) who.push("pod");
  const bad = containersOf(spec)
    .filter((c) => c.securityContext?.runAsUser === 0)
    .map((c) => c.name);
  if (bad.length > 0) who.push(containersPhrase(bad));
  if (who.length === 0) return undefined;
  return { reason: "runAsUser=0", detail: `${who.join(" and ")} must not set runAsUser=0` };
}

function seccompRestricted(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const who: string[] = [];
  const values: string[] = [];
  const podType = spec.securityContext?.seccompProfile?.type;
  if (podType !== undefined && !validSeccomp(podType)) {
    who.push("pod");
    values.push(podType);
  }
  const podSet = podType !== undefined && validSeccomp(podType);
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(spec)) {
    const t = c.securityContext?.seccompProfile?.type;
    if (t !== undefined) {
      if (!validSeccomp(t)) {
        explicit.push(c.name);
        values.push(t);
      }
    } else if (!podSet) implicit.push(c.name);
  }
  if (explicit.length > 0) who.push(containersPhrase(explicit));
  if (who.length > 0)
    return {
      reason: "seccompProfile",
      detail: `${who.join(" and ")} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`,
    };
  if (implicit.length > 0)
    return {
      reason: "seccompProfile",
      detail: `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    };
  return undefined;
}

function capabilitiesRestricted(_: ObjectMeta, spec: PodSpec): Violation | undefined {
  const missingDrop: string[] = [];
  const adding: string[] = [];
  const added: string[] = [];
  for (const c of containersOf(spec)) {
    const caps = c.securityContext?.capabilities;
    if (!caps) {
      missingDrop.push(c.name);
      continue;
    }
    if (!(caps.drop ?? []).includes("ALL")) missingDrop.push(c.name);
    const extra = (caps.add ?? []).filter((cap) => cap !== "NET_BIND_SERVICE");
    if (extra.length > 0) adding.push(c.name);
    added.push(...extra);
  }
  const details: string[] = [];
  if (missingDrop.length > 0)
    details.push(
      `${containersPhrase(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`,
    );
  if (adding.length > 0)
    details.push(
      `${containersPhrase(adding)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`,
    );
  return details.length > 0
    ? { reason: "unrestricted capabilities", detail: details.join("; ") }
    : undefined;
}

export const RESTRICTED_CHECKS: Check[] = [
  {
    id: "allowPrivilegeEscalation",
    level: "restricted",
    versions: [
      { minimumMinor: 8, check: allowPrivilegeEscalation },
      { minimumMinor: 25, check: linuxOnly(allowPrivilegeEscalation) },
    ],
  },
  {
    id: "capabilities_restricted",
    level: "restricted",
    versions: [
      { minimumMinor: 22, check: capabilitiesRestricted, overrides: ["capabilities_baseline"] },
      {
        minimumMinor: 25,
        check: linuxOnly(capabilitiesRestricted),
        overrides: ["capabilities_baseline"],
      },
    ],
  },
  {
    id: "restrictedVolumes",
    level: "restricted",
    versions: [{ minimumMinor: 0, check: restrictedVolumes, overrides: ["hostPathVolumes"] }],
  },
  { id: "runAsNonRoot", level: "restricted", versions: [{ minimumMinor: 0, check: runAsNonRoot }] },
  { id: "runAsUser", level: "restricted", versions: [{ minimumMinor: 23, check: runAsUser }] },
  {
    id: "seccompProfile_restricted",
    level: "restricted",
    versions: [
      { minimumMinor: 19, check: seccompRestricted, overrides: ["seccompProfile_baseline"] },
      {
        minimumMinor: 25,
        check: linuxOnly(seccompRestricted),
        overrides: ["seccompProfile_baseline"],
      },
    ],
  },
];
