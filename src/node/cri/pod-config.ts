/**
 * TEMPORARY minimal mapping (the full one, with limits and securityContext,
 * lands from branch h-criconfig and replaces this file).
 */
import type { Container, Pod } from "../../api/index.js";
import type { ContainerConfig, PodSandboxConfig } from "./cri-types.js";

export const POD_NAME_LABEL = "io.kubernetes.pod.name";
export const POD_NAMESPACE_LABEL = "io.kubernetes.pod.namespace";
export const POD_UID_LABEL = "io.kubernetes.pod.uid";
export const CONTAINER_NAME_LABEL = "io.kubernetes.container.name";
const GRACE_ANNOTATION = "io.kubernetes.pod.terminationGracePeriod";

export interface SandboxFacts {
  logDirectory: string;
  cgroupParent?: string;
  dns?: { servers: string[]; searches: string[]; options: string[] };
  attempt?: number;
}

function hostname(pod: Pod): string {
  return pod.spec.hostname || (pod.metadata.name ?? "").slice(0, 63).replace(/[-.]+$/, "");
}

export function podSandboxConfig(pod: Pod, facts: SandboxFacts): PodSandboxConfig {
  const m = pod.metadata;
  return {
    metadata: { name: m.name!, namespace: m.namespace!, uid: m.uid!, attempt: facts.attempt ?? 0 },
    hostname: hostname(pod),
    logDirectory: facts.logDirectory,
    labels: {
      ...(m.labels ?? {}),
      [POD_NAME_LABEL]: m.name!,
      [POD_NAMESPACE_LABEL]: m.namespace!,
      [POD_UID_LABEL]: m.uid!,
    },
    annotations: {
      ...(m.annotations ?? {}),
      [GRACE_ANNOTATION]: String(pod.spec.terminationGracePeriodSeconds ?? 30),
    },
  };
}

export interface ContainerFacts {
  attempt: number;
  logPath: string;
  image: string;
  env: ReadonlyMap<string, string>;
  command?: string[];
  args?: string[];
  mounts: { source: string; target: string; readOnly: boolean }[];
}

export function containerConfig(pod: Pod, c: Container, facts: ContainerFacts): ContainerConfig {
  const m = pod.metadata;
  return {
    metadata: { name: c.name, attempt: facts.attempt },
    image: { image: facts.image },
    ...(facts.command ? { command: facts.command } : {}),
    ...(facts.args ? { args: facts.args } : {}),
    ...(c.workingDir ? { workingDir: c.workingDir } : {}),
    envs: [...facts.env].map(([key, value]) => ({ key, value })),
    mounts: facts.mounts.map((x) => ({
      containerPath: x.target,
      hostPath: x.source,
      readonly: x.readOnly,
    })),
    labels: {
      [POD_NAME_LABEL]: m.name!,
      [POD_NAMESPACE_LABEL]: m.namespace!,
      [POD_UID_LABEL]: m.uid!,
      [CONTAINER_NAME_LABEL]: c.name,
    },
    logPath: facts.logPath,
  };
}

export function podOfSandbox(
  labels: Record<string, string>,
  annotations: Record<string, string>,
):
  | { uid: string; namespace: string; name: string; terminationGracePeriodSeconds: number }
  | undefined {
  const uid = labels[POD_UID_LABEL];
  const namespace = labels[POD_NAMESPACE_LABEL];
  const name = labels[POD_NAME_LABEL];
  if (!uid || !namespace || !name) return undefined;
  const grace = Number(annotations[GRACE_ANNOTATION] ?? 30);
  return {
    uid,
    namespace,
    name,
    terminationGracePeriodSeconds: Number.isFinite(grace) ? grace : 30,
  };
}
