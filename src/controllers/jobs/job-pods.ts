/**
 * What the Job controller reads off pods and writes into new ones, as kube's
 * job controller does: which pods are active, terminating, ready, failed;
 * when a pod finished (for the failure backoff); the order in which surplus
 * pods go; and a pod made from the Job's template with the tracking finalizer
 * and a controller owner reference.
 */

import type { OwnerReference, Pod } from "../../api/index.js";
import { JOB_TRACKING_FINALIZER, type Job, type LabelSelector } from "../../api/index.js";

const TERMINAL = new Set(["Succeeded", "Failed"]);
/** The longest generateName prefix the apiserver keeps (63 less its 5 random characters). */
const MAX_GENERATE_PREFIX = 58;

export const isTerminal = (p: Pod) => TERMINAL.has(p.status?.phase ?? "");
/** kube's FilterActivePods: neither finished nor being deleted. */
export const isActive = (p: Pod) => !isTerminal(p) && !p.metadata.deletionTimestamp;
/** kube's CountTerminatingPods: being deleted but not finished. */
export const isTerminating = (p: Pod) => !isTerminal(p) && !!p.metadata.deletionTimestamp;
export const isReady = (p: Pod) =>
  (p.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
export const hasTrackingFinalizer = (p: Pod) =>
  (p.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);

/** With podReplacementPolicy Failed, a pod counts as failed only once it reaches phase Failed. */
export const onlyReplaceFailed = (job: Job) =>
  job.spec.podReplacementPolicy === "Failed" || job.spec.podFailurePolicy !== undefined;

/** Failed, or deleted before it succeeded (an orphan never reaches Failed). */
export function isFailed(p: Pod, job: Job): boolean {
  if (p.status?.phase === "Failed") return true;
  if (onlyReplaceFailed(job)) return false;
  return !!p.metadata.deletionTimestamp && p.status?.phase !== "Succeeded";
}

export function controllerRef(obj: { metadata: { ownerReferences?: OwnerReference[] } }) {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** kube's getFinishedTime: last container exit, else Ready turning false, deletion, creation. */
export function finishedAt(p: Pod): number {
  let last = 0;
  for (const s of [
    ...(p.status?.initContainerStatuses ?? []),
    ...(p.status?.containerStatuses ?? []),
  ])
    last = Math.max(last, Date.parse(s.state?.terminated?.finishedAt ?? "") || 0);
  if (last > 0) return last;
  const ready = (p.status?.conditions ?? []).find(
    (c) => c.type === "Ready" && c.status === "False",
  );
  const readyAt = Date.parse(ready?.lastTransitionTime ?? "");
  if (readyAt) return readyAt;
  return (
    Date.parse(p.metadata.deletionTimestamp ?? "") ||
    Date.parse(p.metadata.creationTimestamp ?? "") ||
    0
  );
}

/**
 * How long to wait before creating pods again: 10 s doubled per failure since
 * the last success (capped), counted from the last failure (kube's backoff record).
 */
export function backoffRemaining(
  pods: Pod[],
  job: Job,
  now: number,
  baseMs: number,
  maxMs: number,
): number {
  const lastSuccess = Math.max(
    0,
    ...pods.filter((p) => p.status?.phase === "Succeeded").map(finishedAt),
  );
  const failures = pods
    .filter((p) => isFailed(p, job))
    .map(finishedAt)
    .filter((t) => t > lastSuccess);
  if (failures.length === 0) return 0;
  const delay = Math.min(baseMs * 2 ** (failures.length - 1), maxMs);
  return Math.max(0, delay - (now - Math.max(...failures)));
}

/** restartPolicy OnFailure: container restarts of running pods count toward backoffLimit. */
export function pastBackoffLimitOnFailure(job: Job, pods: Pod[]): boolean {
  if (job.spec.template.spec?.restartPolicy !== "OnFailure") return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== "Running" && p.status?.phase !== "Pending") continue;
    for (const s of [
      ...(p.status?.initContainerStatuses ?? []),
      ...(p.status?.containerStatuses ?? []),
    ])
      restarts += s.restartCount ?? 0;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** kube's ActivePods order: unscheduled, pending, not ready, then the newest go first. */
export function removalOrder(pods: Pod[]): Pod[] {
  const key = (p: Pod) => [
    p.spec?.nodeName ? 1 : 0,
    PHASE_RANK[p.status?.phase ?? "Pending"] ?? 0,
    isReady(p) ? 1 : 0,
    -(Date.parse(p.metadata.creationTimestamp ?? "") || 0),
  ];
  return [...pods].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
    return 0;
  });
}

/** A label selector object in the string form list calls take. */
export function selectorString(sel: LabelSelector | undefined): string {
  const parts = Object.entries(sel?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of sel?.matchExpressions ?? []) {
    if (e.operator === "In") parts.push(`${e.key} in (${(e.values ?? []).join(",")})`);
    else if (e.operator === "NotIn") parts.push(`${e.key} notin (${(e.values ?? []).join(",")})`);
    else if (e.operator === "Exists") parts.push(e.key);
    else parts.push(`!${e.key}`);
  }
  return parts.join(",");
}

/** A pod for the Job (kube's GetPodFromTemplate plus the job-tracking finalizer). */
export function podFromTemplate(job: Job): Pod {
  const tmpl = job.spec.template;
  const meta = tmpl.metadata ?? {};
  const finalizers = [...(meta.finalizers ?? [])];
  if (!finalizers.includes(JOB_TRACKING_FINALIZER)) finalizers.push(JOB_TRACKING_FINALIZER);
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: `${(job.metadata.name ?? "").slice(0, MAX_GENERATE_PREFIX - 1)}-`,
      namespace: job.metadata.namespace,
      labels: { ...(meta.labels ?? {}) },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      finalizers,
      ownerReferences: [
        {
          apiVersion: "batch/v1",
          kind: "Job",
          name: job.metadata.name ?? "",
          uid: job.metadata.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: structuredClone(tmpl.spec ?? {}) as unknown as Pod["spec"],
  };
}
