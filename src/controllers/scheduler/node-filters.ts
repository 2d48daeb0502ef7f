/**
 * The per-node filters that look at the node alone, in kube-scheduler's order and
 * with its reasons: NodeUnschedulable (`spec.unschedulable`), TaintToleration
 * (NoSchedule and NoExecute taints, and a node that is not Ready counts as
 * tainted `node.kubernetes.io/not-ready` or `…/unreachable`, as the node
 * lifecycle controller would taint it), NodeAffinity (`spec.nodeSelector` and
 * required node affinity, `matchFields` on `metadata.name` as DaemonSet pods carry).
 */
import { nodeAffinityMatches } from "../../api/index.js";
import type { Node, Pod, Taint, Toleration } from "./types.js";

export const NOT_READY_TAINT = "node.kubernetes.io/not-ready";
export const UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
export const UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

/** True when the node's Ready condition is True. */
export function isReady(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
}

/** The node's taints plus the one its Ready condition implies. */
export function effectiveTaints(node: Node): Taint[] {
  const taints = [...(node.spec?.taints ?? [])];
  if (!isReady(node)) {
    const ready = (node.status?.conditions ?? []).find((c) => c.type === "Ready");
    const key = ready?.status === "Unknown" ? UNREACHABLE_TAINT : NOT_READY_TAINT;
    if (!taints.some((t) => t.key === key)) taints.push({ key, effect: "NoSchedule" });
  }
  return taints;
}

export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.operator === "Exists") return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? "") === (taint.value ?? "");
}

function untolerated(pod: Pod, node: Node): Taint | undefined {
  const tolerations = pod.spec?.tolerations ?? [];
  return effectiveTaints(node).find(
    (taint) =>
      (taint.effect === "NoSchedule" || taint.effect === "NoExecute") &&
      !tolerations.some((t) => tolerates(t, taint)),
  );
}

/** `nodeSelector` and the required node affinity (matchExpressions, matchFields). */
function matchesNodeSelector(pod: Pod, node: Node): boolean {
  return nodeAffinityMatches(pod.spec, node);
}

/** The first reason the node alone refuses the pod, as kube words it; undefined if none. */
export function nodeRefusal(pod: Pod, node: Node): string | undefined {
  if (node.spec?.unschedulable) {
    const tolerated = (pod.spec?.tolerations ?? []).some((t) =>
      tolerates(t, { key: UNSCHEDULABLE_TAINT, effect: "NoSchedule" }),
    );
    if (!tolerated) return "node(s) were unschedulable";
  }
  const taint = untolerated(pod, node);
  if (taint) return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ""}}`;
  if (!matchesNodeSelector(pod, node)) return "node(s) didn't match Pod's node affinity/selector";
  return undefined;
}
