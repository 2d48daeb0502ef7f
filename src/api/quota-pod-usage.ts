/**
 * What a pod costs a ResourceQuota, as kube's pod evaluator counts it: `pods`
 * and `count/pods`, and its compute requests and limits (the containers' sum,
 * or the largest init container's) under `cpu`/`memory`, `requests.*`,
 * `limits.*`, hugepages and extended resources — compute only while the pod is
 * not terminal and not past its deletion grace. Also the pod scopes and kube's
 * rule that a quota on cpu or memory needs every container to state it.
 */
import type { Container, Pod } from "./pod.js";
import { parseQuantity } from "./quantity.js";
import type { Evaluator, ScopedResourceSelectorRequirement } from "./quota-types.js";
import {
  addLists,
  canonicalQuantity,
  maxInto,
  type QuantityList,
  type ResourceList,
} from "./resource-list.js";
import type { KubeObject } from "./types.js";

/** Partially qualified names, and names under `kubernetes.io/`, are Kubernetes' own. */
export function isNativeResource(name: string): boolean {
  return !name.includes("/") || name.includes("kubernetes.io/");
}

/** The compute names of quota: `cpu`, `memory`, `ephemeral-storage`, bare and as `requests.*` and `limits.*`. */
export const COMPUTE_RESOURCES = ["cpu", "memory", "ephemeral-storage"].flatMap((r) => [
  r,
  `requests.${r}`,
  `limits.${r}`,
]);
const POD_RESOURCES = ["count/pods", "pods", ...COMPUTE_RESOURCES];
/** A pod quota on cpu or memory needs every container to state it (kube's backward-compatible rule). */
const MUST_SPECIFY = COMPUTE_RESOURCES.filter((r) => !r.includes("ephemeral"));

function podMatchingResources(input: string[]): string[] {
  return input.filter(
    (n) =>
      POD_RESOURCES.includes(n) ||
      n.startsWith("hugepages-") ||
      n.startsWith("requests.hugepages-") ||
      (!isNativeResource(n) && n.startsWith("requests.")),
  );
}

/** A container's requests as stored by kube, whose defaulting copies a limit to a missing request. */
function containerRequests(c: Container): QuantityList {
  return { ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) };
}

/** The containers' sum, or the largest init container's where that is more. */
function podTotal(pod: Pod, of: (c: Container) => QuantityList): ResourceList {
  let total: ResourceList = {};
  for (const c of pod.spec?.containers ?? []) total = addLists(total, of(c));
  const init: ResourceList = {};
  for (const c of pod.spec?.initContainers ?? []) maxInto(init, of(c));
  maxInto(total, init);
  return total;
}

/** kube's `PodRequests` and `PodLimits` (a missing request is the container's limit). */
export function podTotals(pod: Pod): { requests: ResourceList; limits: ResourceList } {
  return {
    requests: podTotal(pod, containerRequests),
    limits: podTotal(pod, (c) => c.resources?.limits ?? {}),
  };
}

/** kube's `podComputeUsageHelper`: quota names from requests and limits. */
function computeUsage(requests: QuantityList, limits: QuantityList): ResourceList {
  const out: ResourceList = { pods: "1" };
  for (const r of ["cpu", "memory", "ephemeral-storage"]) {
    if (requests[r] !== undefined) {
      out[r] = canonicalQuantity(requests[r]);
      out[`requests.${r}`] = out[r];
    }
    if (limits[r] !== undefined) out[`limits.${r}`] = canonicalQuantity(limits[r]);
  }
  for (const [r, q] of Object.entries(requests)) {
    if (r.startsWith("hugepages-")) out[r] = out[`requests.${r}`] = canonicalQuantity(q);
    else if (!isNativeResource(r) && !r.startsWith("requests."))
      out[`requests.${r}`] = canonicalQuantity(q);
  }
  return out;
}

/**
 * When a deleting pod stops counting (ms): its deletion time plus its grace
 * period, as kube's `QuotaV1Pod` (a pod stuck terminating is not charged).
 */
export function podChargeEnds(pod: Pod): number | undefined {
  const at = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  return at !== undefined && grace !== undefined ? Date.parse(at) + grace * 1000 : undefined;
}

/** A terminal pod (Succeeded, Failed), or one past its deletion grace, is not charged. */
export function podCharged(pod: Pod, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === "Succeeded" || phase === "Failed") return false;
  const ends = podChargeEnds(pod);
  return ends === undefined || now <= ends;
}

function isTerminating(pod: Pod): boolean {
  const deadline = pod.spec?.activeDeadlineSeconds;
  return deadline !== undefined && deadline >= 0;
}

function isBestEffort(pod: Pod): boolean {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return !all.some((c) =>
    [c.resources?.requests, c.resources?.limits].some((list) =>
      ["cpu", "memory"].some((r) => list?.[r] !== undefined && parseQuantity(list[r]!) > 0n),
    ),
  );
}

function usesCrossNamespaceAffinity(pod: Pod): boolean {
  const anti = pod.spec?.affinity?.podAntiAffinity;
  const terms = [
    ...(anti?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(anti?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => w.podAffinityTerm),
  ];
  return terms.some((t) => (t.namespaces ?? []).length > 0);
}

/** A PriorityClass scope selector over the pod's class, matched as a label selector. */
function matchesPriorityClass(pod: Pod, s: ScopedResourceSelectorRequirement): boolean {
  const name = (pod.spec as { priorityClassName?: string } | undefined)?.priorityClassName;
  const value = name ? name : undefined;
  switch (s.operator) {
    case "In":
      return value !== undefined && (s.values ?? []).includes(value);
    case "NotIn":
      return value === undefined || !(s.values ?? []).includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
  }
  return false;
}

function podMatchesScope(s: ScopedResourceSelectorRequirement, obj: KubeObject): boolean {
  const pod = obj as Pod;
  switch (s.scopeName) {
    case "Terminating":
      return isTerminating(pod);
    case "NotTerminating":
      return !isTerminating(pod);
    case "BestEffort":
      return isBestEffort(pod);
    case "NotBestEffort":
      return !isBestEffort(pod);
    case "PriorityClass":
      return matchesPriorityClass(pod, s);
    case "CrossNamespacePodAffinity":
      return usesCrossNamespaceAffinity(pod);
  }
  return false;
}

/** `must specify requests.cpu for: app,db; …` when containers leave out what the quota tracks. */
function podConstraints(required: string[], obj: KubeObject): string | undefined {
  const pod = obj as Pod;
  const wanted = required.filter((r) => MUST_SPECIFY.includes(r));
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const has = computeUsage(containerRequests(c), c.resources?.limits ?? {});
    for (const r of wanted)
      if (!(r in has)) missing.set(r, (missing.get(r) ?? new Set()).add(c.name));
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()]
    .sort()
    .map((r) => `${r} for: ${[...missing.get(r)!].sort().join(",")}`);
  return `must specify ${parts.join("; ")}`;
}

export const podEvaluator: Evaluator = {
  groupResource: { group: "", resource: "pods" },
  matchingResources: podMatchingResources,
  // A pod's spec cannot change its resources; an update matters only when it enters or leaves the Terminating scope.
  handles: (op, obj, old) =>
    op === "CREATE" ||
    (old !== undefined && isTerminating(old as Pod) !== isTerminating(obj as Pod)),
  matchesScope: podMatchesScope,
  usage(obj, now) {
    const pod = obj as Pod;
    if (!podCharged(pod, now)) return { "count/pods": "1" };
    const { requests, limits } = podTotals(pod);
    return { "count/pods": "1", ...computeUsage(requests, limits) };
  },
  constraints: podConstraints,
};
