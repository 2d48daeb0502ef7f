/**
 * policy/v1 PodDisruptionBudget and Eviction as code reads them, and the rules
 * the apiserver (eviction) and the disruption controller (status) must agree on:
 * which pods a budget selects, when a pod counts as healthy, how long an
 * eviction the controller has not seen yet keeps a pod out of the count.
 * Field names, condition type and reasons are Kubernetes' (k8s.io/api/policy/v1).
 */
import type { LabelSelector } from "./batch.js";
import type { IntOrString } from "./int-or-percent.js";
import type { Pod } from "./pod.js";
import { labelSelectorFromObject } from "./selectors.js";
import type { KubeObject } from "./types.js";

export const PDB = { apiVersion: "policy/v1", kind: "PodDisruptionBudget" } as const;

/** The condition the controller keeps on every budget, and its reasons. */
export const DISRUPTION_ALLOWED = "DisruptionAllowed";
export const SUFFICIENT_PODS = "SufficientPods";
export const INSUFFICIENT_PODS = "InsufficientPods";
export const SYNC_FAILED = "SyncFailed";

/** The StatusCause type of an eviction refused by a budget. */
export const DISRUPTION_BUDGET_CAUSE = "DisruptionBudget";
/** kube's eviction message for a refusal by a budget. */
export const EVICTION_REFUSED_MESSAGE =
  "Cannot evict pod as it would violate the pod's disruption budget.";

/** How long an evicted pod, not deleted yet, stays out of `currentHealthy` (kube's DeletionTimeout). */
export const DISRUPTED_POD_TIMEOUT_MS = 2 * 60_000;
/** The eviction handler refuses budgets whose `disruptedPods` has grown past this (kube's MaxDisruptedPodSize). */
export const MAX_DISRUPTED_PODS = 2000;

export interface PodDisruptionBudgetSpec {
  minAvailable?: IntOrString;
  maxUnavailable?: IntOrString;
  selector?: LabelSelector;
  unhealthyPodEvictionPolicy?: "IfHealthyBudget" | "AlwaysAllow";
}

export interface MetaCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  /** Pod name → when the eviction handler let it go (RFC 3339). */
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: MetaCondition[];
}

export interface PodDisruptionBudget extends KubeObject {
  spec?: PodDisruptionBudgetSpec;
  status?: PodDisruptionBudgetStatus;
}

export interface Eviction extends KubeObject {
  deleteOptions?: Record<string, unknown>;
}

/**
 * Whether the budget selects the pod, as the disruption controller lists them:
 * `LabelSelectorAsSelector` makes a missing selector select nothing and an
 * empty one (policy/v1) every pod of the namespace. A selector that does not
 * parse selects nothing.
 */
export function budgetSelects(pdb: PodDisruptionBudget, pod: KubeObject): boolean {
  const selector = pdb.spec?.selector;
  if (!selector || pod.metadata.namespace !== pdb.metadata.namespace) return false;
  try {
    const labels = pod.metadata.labels ?? {};
    return labelSelectorFromObject(selector).matches((k) => labels[k]);
  } catch {
    return false;
  }
}

/** kube's `IsPodReady`: the pod's Ready condition is True (the budget's idea of healthy). */
export function podIsReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
}

/**
 * kube's `UpdateDisruptionAllowedCondition`: DisruptionAllowed True
 * (SufficientPods) while disruptions are allowed, else False (InsufficientPods);
 * the transition time moves only when the status does.
 */
export function withDisruptionAllowed(
  status: PodDisruptionBudgetStatus,
  now: string,
): PodDisruptionBudgetStatus {
  const allowed = status.disruptionsAllowed > 0;
  return withCondition(status, {
    type: DISRUPTION_ALLOWED,
    status: allowed ? "True" : "False",
    reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS,
    message: "",
    lastTransitionTime: now,
    ...(status.observedGeneration !== undefined
      ? { observedGeneration: status.observedGeneration }
      : {}),
  });
}

/** apimachinery's `SetStatusCondition`: replaces the condition of that type, keeping its transition time unless the status changed. */
export function withCondition(
  status: PodDisruptionBudgetStatus,
  cond: MetaCondition,
): PodDisruptionBudgetStatus {
  const conditions = status.conditions ?? [];
  const old = conditions.find((c) => c.type === cond.type);
  const next =
    old && old.status === cond.status
      ? { ...cond, lastTransitionTime: old.lastTransitionTime }
      : cond;
  return {
    ...status,
    conditions: old ? conditions.map((c) => (c === old ? next : c)) : [...conditions, next],
  };
}
