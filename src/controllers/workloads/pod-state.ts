/**
 * What the workload controllers read off pods, as kube's controller utilities
 * do: active (neither finished nor being deleted), ready (the Ready
 * condition), available (ready for at least minReadySeconds, IsPodAvailable),
 * and when an available-to-be pod will be available (for the requeue); and
 * the controller references the workload controllers read and write.
 */
import type { KubeObject, OwnerReference, Pod } from "../../api/index.js";

const TERMINAL = new Set(["Succeeded", "Failed"]);

/** kube's FilterActivePods / IsPodActive. */
export const isActive = (p: Pod) =>
  !TERMINAL.has(p.status?.phase ?? "") && !p.metadata.deletionTimestamp;

function readyCondition(p: Pod) {
  return (p.status?.conditions ?? []).find((c) => c.type === "Ready");
}

export const isReady = (p: Pod) => readyCondition(p)?.status === "True";

/** The time the pod last became Ready (ms), or 0 when not ready or unknown. */
export function readySince(p: Pod): number {
  const c = readyCondition(p);
  return c?.status === "True" ? Date.parse(c.lastTransitionTime ?? "") || 0 : 0;
}

/** IsPodAvailable: Ready, and for at least minReadySeconds. */
export function isAvailable(p: Pod, minReadySeconds: number, now: number): boolean {
  if (!isReady(p)) return false;
  if (minReadySeconds <= 0) return true;
  const since = readySince(p);
  return since > 0 && since + minReadySeconds * 1000 <= now;
}

/** Ms until a ready but not yet available pod becomes available (undefined if none). */
export function nextAvailableIn(pods: Pod[], minReadySeconds: number, now: number) {
  if (minReadySeconds <= 0) return undefined;
  let soonest: number | undefined;
  for (const p of pods) {
    if (!isReady(p) || isAvailable(p, minReadySeconds, now)) continue;
    const wait = readySince(p) + minReadySeconds * 1000 - now;
    soonest = Math.min(soonest ?? wait, wait);
  }
  return soonest === undefined ? undefined : Math.max(soonest, 1);
}

/** The controller reference (blocking its owner's foreground deletion) an apps/v1 owner puts on what it makes. */
export function controllerRefTo(
  kind: "Deployment" | "ReplicaSet",
  owner: KubeObject,
): OwnerReference {
  return {
    apiVersion: "apps/v1",
    kind,
    name: owner.metadata.name ?? "",
    uid: owner.metadata.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function controllerRef(obj: {
  metadata: { ownerReferences?: OwnerReference[] };
}): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}
