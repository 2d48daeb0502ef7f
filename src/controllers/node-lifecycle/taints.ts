/**
 * Taints as kube's node lifecycle and taint eviction controllers use them, as
 * pure functions. A node's Ready condition decides its controller taints:
 * Unknown → `node.kubernetes.io/unreachable`, False → `node.kubernetes.io/not-ready`,
 * each with effects NoSchedule and NoExecute; True (or no condition) → neither.
 * Every NoExecute taint evicts the pods that do not tolerate it at once, and
 * those that tolerate it for `tolerationSeconds` when that time has passed
 * since the taint was added; a pod without a toleration for not-ready or
 * unreachable tolerates them for 300 s (kube's DefaultTolerationSeconds
 * admission, applied here when deciding rather than stored in the pod).
 */
import { tolerates, UNSCHEDULABLE_TAINT } from "../scheduler/index.js";
import {
  DEFAULT_TOLERATION_SECONDS,
  NOT_READY_TAINT,
  type NodeView,
  type PodView,
  readyCondition,
  type Taint,
  type Toleration,
  UNREACHABLE_TAINT,
} from "./types.js";

const CONTROLLER_TAINTS = [UNREACHABLE_TAINT, NOT_READY_TAINT];
const EFFECTS = ["NoSchedule", "NoExecute"];

function isControllerTaint(t: Taint): boolean {
  return CONTROLLER_TAINTS.includes(t.key) && EFFECTS.includes(t.effect);
}

/** The controller taint key the node's Ready condition calls for, if any. */
function wantedKey(node: NodeView): string | undefined {
  const status = readyCondition(node)?.status;
  if (status === "Unknown") return UNREACHABLE_TAINT;
  if (status === "False") return NOT_READY_TAINT;
  return undefined;
}

const isUnschedulableTaint = (t: Taint) =>
  t.key === UNSCHEDULABLE_TAINT && t.effect === "NoSchedule";

/**
 * The node's taints with the controller taints its Ready condition calls for
 * (new ones stamped `timeAdded: now`, present ones kept as they are) and
 * without the others, and `node.kubernetes.io/unschedulable:NoSchedule` exactly
 * while `spec.unschedulable` (a cordoned node, kube's doNoScheduleTaintingPass);
 * undefined when they are already so.
 */
export function desiredTaints(node: NodeView, now: string): Taint[] | undefined {
  const current = node.spec?.taints ?? [];
  const key = wantedKey(node);
  const cordoned = node.spec?.unschedulable === true;
  const kept = current.filter(
    (t) => (!isControllerTaint(t) || t.key === key) && (cordoned || !isUnschedulableTaint(t)),
  );
  const added: Taint[] = [];
  if (key)
    for (const effect of EFFECTS)
      if (!kept.some((t) => t.key === key && t.effect === effect))
        added.push({ key, effect, timeAdded: now });
  if (cordoned && !kept.some(isUnschedulableTaint))
    added.push({ key: UNSCHEDULABLE_TAINT, effect: "NoSchedule", timeAdded: now });
  if (added.length === 0 && kept.length === current.length) return undefined;
  return [...kept, ...added];
}

/** The pod's tolerations plus kube's defaults for not-ready and unreachable NoExecute. */
export function effectiveTolerations(pod: PodView): Toleration[] {
  const own = pod.spec.tolerations ?? [];
  const covers = (key: string) =>
    own.some((t) => (!t.key || t.key === key) && (!t.effect || t.effect === "NoExecute"));
  const defaults = [NOT_READY_TAINT, UNREACHABLE_TAINT]
    .filter((key) => !covers(key))
    .map(
      (key): Toleration => ({
        key,
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: DEFAULT_TOLERATION_SECONDS,
      }),
    );
  return [...own, ...defaults];
}

/**
 * When the node's NoExecute taints evict the pod, in ms since the epoch: `since(taint)`
 * is when a taint started counting. 0 means now (a taint it does not tolerate);
 * undefined means never (no NoExecute taint, or tolerated without a time limit).
 */
export function evictionTime(
  pod: PodView,
  taints: Taint[],
  since: (taint: Taint) => number,
): number | undefined {
  const tolerations = effectiveTolerations(pod);
  let at: number | undefined;
  for (const taint of taints) {
    if (taint.effect !== "NoExecute") continue;
    const matching = tolerations.filter((t) => tolerates(t, taint));
    if (matching.length === 0) return 0;
    const limits = matching.flatMap((t) =>
      t.tolerationSeconds === undefined ? [] : [Math.max(0, t.tolerationSeconds)],
    );
    if (limits.length === 0) continue;
    const deadline = since(taint) + Math.min(...limits) * 1000;
    at = at === undefined ? deadline : Math.min(at, deadline);
  }
  return at;
}
