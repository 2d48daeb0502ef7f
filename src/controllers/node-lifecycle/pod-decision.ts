/**
 * What becomes of one pod bound to a node, as a pure function of the pod, its
 * node (as cached) and whether the node is unreachable:
 * - its node does not exist: `orphaned` (kube's pod GC; the caller confirms
 *   with a fresh GET after a quarantine, then force-deletes);
 * - it is terminating on an unreachable node (Ready not True and no sign of
 *   life for the grace period): `forceDelete`, since no agent will ever
 *   confirm its end;
 * - otherwise the node's NoExecute taints decide (kube's taint eviction):
 *   `evict` once its toleration has run out, else `keep`, looking again when
 *   it will have.
 */
import { evictionTime } from "./taints.js";
import { type NodeView, type PodView, readyCondition, type Taint } from "./types.js";

export type PodDecision =
  | { kind: "keep"; recheckAfterMs?: number }
  | { kind: "orphaned" }
  | { kind: "forceDelete" }
  | { kind: "evict" };

export interface NodeState {
  /** No sign of the node's agent for the grace period. */
  silent: boolean;
  /** When a NoExecute taint of the node started counting, ms since the epoch. */
  taintSince(taint: Taint): number;
}

export function decide(
  pod: PodView,
  node: NodeView | undefined,
  state: NodeState,
  nowMs: number,
): PodDecision {
  if (!pod.spec.nodeName) return { kind: "keep" };
  if (!node) return { kind: "orphaned" };
  if (pod.metadata.deletionTimestamp) {
    const unreachable = state.silent && readyCondition(node)?.status !== "True";
    return unreachable ? { kind: "forceDelete" } : { kind: "keep" };
  }
  const at = evictionTime(pod, node.spec?.taints ?? [], state.taintSince);
  if (at === undefined) return { kind: "keep" };
  if (at <= nowMs) return { kind: "evict" };
  return { kind: "keep", recheckAfterMs: at - nowMs };
}
