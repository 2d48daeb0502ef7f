/**
 * The downward API: values of a pod's own fields (`fieldRef`) and of its
 * containers' resources (`resourceFieldRef`), for env vars and downwardAPI
 * volumes, with kube's supported paths and wording for the rest.
 */
import type { Container, ObjectFieldSelector, Pod, ResourceFieldSelector } from "../api/index.js";
import { parseQuantity } from "../api/index.js";

/** A container cannot be configured (kube's waiting reason `CreateContainerConfigError`). */
export class ContainerConfigError extends Error {
  override readonly name = "ContainerConfigError";
}

export interface PodRuntimeFields {
  podIP: string;
  hostIP: string;
}

/** `k8s.io/kubernetes/pkg/fieldpath` ExtractFieldPathAsString for a pod, plus the status fields. */
export function podFieldValue(pod: Pod, ref: ObjectFieldSelector, rt: PodRuntimeFields): string {
  const path = ref.fieldPath;
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m) {
    const map = (m[1] === "labels" ? pod.metadata.labels : pod.metadata.annotations) ?? {};
    return map[m[2]!] ?? "";
  }
  switch (path) {
    case "metadata.name":
      return pod.metadata.name ?? "";
    case "metadata.namespace":
      return pod.metadata.namespace ?? "";
    case "metadata.uid":
      return pod.metadata.uid ?? "";
    case "metadata.labels":
      return formatMap(pod.metadata.labels ?? {});
    case "metadata.annotations":
      return formatMap(pod.metadata.annotations ?? {});
    case "spec.nodeName":
      return pod.spec.nodeName ?? "";
    case "spec.serviceAccountName":
      return pod.spec.serviceAccountName ?? "";
    case "status.hostIP":
    case "status.hostIPs":
      return rt.hostIP;
    case "status.podIP":
    case "status.podIPs":
      return rt.podIP;
  }
  throw new ContainerConfigError(`unsupported fieldPath: ${path}`);
}

/** `key="value"` lines sorted by key, as downwardAPI volumes write labels and annotations. */
export function formatMap(map: Record<string, string>): string {
  return Object.keys(map)
    .sort()
    .map((k) => `${k}=${JSON.stringify(map[k])}`)
    .join("\n");
}

export interface NodeAllocatable {
  cpu: string;
  memory: string;
  "ephemeral-storage"?: string;
}

/** kube's `ExtractContainerResourceValue`: the limit (or, unset, the node's allocatable) over the divisor, rounded up. */
export function resourceFieldValue(
  pod: Pod,
  ref: ResourceFieldSelector,
  container: Container | undefined,
  node: NodeAllocatable,
): string {
  const c =
    container && !ref.containerName
      ? container
      : [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])].find(
          (x) => x.name === ref.containerName,
        );
  if (!c)
    throw new ContainerConfigError(
      `resourceFieldRef: no container ${JSON.stringify(ref.containerName ?? "")}`,
    );
  const m = /^(limits|requests)\.(cpu|memory|ephemeral-storage)$/.exec(ref.resource);
  if (!m) throw new ContainerConfigError(`unsupported container resource: ${ref.resource}`);
  const [, kind, name] = m as unknown as [string, "limits" | "requests", keyof NodeAllocatable];
  const value =
    c.resources?.[kind]?.[name] ??
    (kind === "requests" ? c.resources?.limits?.[name] : undefined) ??
    (kind === "limits" ? node[name] : undefined) ??
    "0";
  const divisor = parseQuantity(ref.divisor ?? "1");
  if (divisor <= 0n)
    throw new ContainerConfigError(
      `resourceFieldRef ${ref.resource}: the divisor must be positive`,
    );
  const n = parseQuantity(value);
  return String((n + divisor - 1n) / divisor);
}
