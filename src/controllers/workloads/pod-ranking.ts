/**
 * Which pods a ReplicaSet deletes first when it has too many: kube's
 * ActivePodsWithRanks order (pkg/controller/controller_utils.go) with the
 * LogarithmicScaleDown and PodDeletionCost gates on, as in kube since 1.22:
 * unassigned before assigned; Pending before Unknown before Running; not ready
 * before ready; lower `controller.kubernetes.io/pod-deletion-cost` first; pods
 * doubled up on a node (rank: active related pods on the same node) first;
 * ready for less time first; more container restarts first; newer first —
 * times compared in log2 buckets of their age, ties broken by uid.
 */
import { POD_DELETION_COST_ANNOTATION, type Pod } from "../../api/index.js";
import { isActive, isReady, readySince } from "./pod-state.js";

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function deletionCost(p: Pod): number {
  const raw = p.metadata.annotations?.[POD_DELETION_COST_ANNOTATION];
  const n = raw === undefined ? 0 : Number(raw);
  return Number.isInteger(n) ? n : 0;
}

function maxRestarts(p: Pod): number {
  let max = 0;
  for (const s of [
    ...(p.status?.initContainerStatuses ?? []),
    ...(p.status?.containerStatuses ?? []),
  ])
    max = Math.max(max, s.restartCount ?? 0);
  return max;
}

/** log2 of the age in nanoseconds, as kube's logarithmicRankDiff (−1 for no age). */
function logRank(t: number, now: number): number {
  const ns = (now - t) * 1e6;
  return ns > 0 ? Math.floor(Math.log2(ns)) : -1;
}

/** afterOrZero, then the log buckets: negative when a goes first. */
function compareTimes(a: number, b: number, uidA: string, uidB: string, now: number): number {
  if (a === b) return 0;
  if (a === 0 || b === 0) return a === 0 ? -1 : 1;
  const diff = logRank(a, now) - logRank(b, now);
  if (diff === 0) return uidA < uidB ? -1 : uidA > uidB ? 1 : 0;
  return diff;
}

/** Negative when `a` should be deleted before `b`. */
function compare(a: Pod, b: Pod, rankA: number, rankB: number, now: number): number {
  const nodeA = a.spec?.nodeName ?? "";
  const nodeB = b.spec?.nodeName ?? "";
  if (nodeA !== nodeB && (nodeA === "" || nodeB === "")) return nodeA === "" ? -1 : 1;
  const phaseA = PHASE_ORDINAL[a.status?.phase ?? ""] ?? 0;
  const phaseB = PHASE_ORDINAL[b.status?.phase ?? ""] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  if (isReady(a) !== isReady(b)) return isReady(a) ? 1 : -1;
  if (deletionCost(a) !== deletionCost(b)) return deletionCost(a) - deletionCost(b);
  if (rankA !== rankB) return rankB - rankA;
  const uidA = a.metadata.uid ?? "";
  const uidB = b.metadata.uid ?? "";
  if (isReady(a) && isReady(b)) {
    const c = compareTimes(readySince(a), readySince(b), uidA, uidB, now);
    if (c !== 0) return c;
  }
  if (maxRestarts(a) !== maxRestarts(b)) return maxRestarts(b) - maxRestarts(a);
  const createdA = Date.parse(a.metadata.creationTimestamp ?? "") || 0;
  const createdB = Date.parse(b.metadata.creationTimestamp ?? "") || 0;
  return compareTimes(createdA, createdB, uidA, uidB, now);
}

/**
 * kube's getPodsToDelete: the `count` pods of `pods` to delete first, each
 * ranked by how many active pods of `related` (the pods of the ReplicaSet's
 * owner, or its own) run on its node.
 */
export function podsToDelete(pods: Pod[], related: Pod[], count: number, now: number): Pod[] {
  const onNode = new Map<string, number>();
  for (const p of related) {
    const node = p.spec?.nodeName ?? "";
    if (node !== "" && isActive(p)) onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const rank = (p: Pod) => onNode.get(p.spec?.nodeName ?? "") ?? 0;
  const ranked = pods.map((p) => ({ p, r: rank(p) }));
  ranked.sort((x, y) => compare(x.p, y.p, x.r, y.r, now));
  return ranked.slice(0, Math.max(0, count)).map((x) => x.p);
}
