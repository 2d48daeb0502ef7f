/**
 * What the Deployment controller computes about a Deployment and its
 * ReplicaSets (kube's pkg/controller/deployment/util): the pod-template-hash
 * (FNV-1a of the template in canonical JSON and the collision count, encoded
 * as rand.SafeEncodeString), template equality ignoring that label, the new
 * and old ReplicaSets, revisions, the replica annotations, and maxSurge /
 * maxUnavailable resolved against replicas (surge rounds up, unavailable
 * down, both 0 → unavailable 1, as ResolveFenceposts).
 */
import { isDeepStrictEqual } from "node:util";
import {
  DESIRED_REPLICAS_ANNOTATION,
  type Deployment,
  MAX_REPLICAS_ANNOTATION,
  POD_TEMPLATE_HASH_LABEL,
  type PodTemplateSpec,
  REVISION_ANNOTATION,
  type ReplicaSet,
  scaledValue,
} from "../../api/index.js";

/** Keys sorted, empty maps and lists dropped (Semantic.DeepEqual treats nil and empty alike). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = canonical((value as Record<string, unknown>)[key]);
    if (v !== undefined && v !== null) out[key] = v;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The template as compared and hashed: without pod-template-hash or creationTimestamp. */
function comparable(template: PodTemplateSpec | undefined): unknown {
  const t = structuredClone(template ?? {});
  if (t.metadata) {
    delete t.metadata.creationTimestamp;
    if (t.metadata.labels) delete t.metadata.labels[POD_TEMPLATE_HASH_LABEL];
  }
  return canonical(t);
}

const SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/** kube's ComputeHash shape: a 32-bit FNV-1a of the template and collisionCount, safe-encoded. */
export function templateHash(template: PodTemplateSpec, collisionCount?: number): string {
  let text = JSON.stringify(comparable(template) ?? {});
  if (collisionCount !== undefined) text += String(collisionCount);
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return [...String(hash)]
    .map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length])
    .join("");
}

/** EqualIgnoreHash. */
export function sameTemplate(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined) {
  return isDeepStrictEqual(comparable(a), comparable(b));
}

const created = (rs: ReplicaSet) => Date.parse(rs.metadata.creationTimestamp ?? "") || 0;

/** ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const d = created(a) - created(b);
  return d !== 0 ? d : (a.metadata.name ?? "").localeCompare(b.metadata.name ?? "");
}

/** FindNewReplicaSet (the oldest with the Deployment's template) and FindOldReplicaSets. */
export function splitReplicaSets(d: Deployment, all: ReplicaSet[]) {
  const sorted = [...all].sort(byCreation);
  const newRS = sorted.find((rs) => sameTemplate(rs.spec.template, d.spec.template));
  const oldRSs = sorted.filter((rs) => rs !== newRS);
  return { newRS, oldRSs };
}

export function revisionOf(obj: { metadata: { annotations?: Record<string, string> } }): number {
  const n = Number(obj.metadata.annotations?.[REVISION_ANNOTATION] ?? "0");
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export const replicasOf = (rs: ReplicaSet | undefined) => rs?.spec.replicas ?? 0;
export const sumSpec = (rss: (ReplicaSet | undefined)[]) =>
  rss.reduce((n, rs) => n + replicasOf(rs), 0);
export const sumStatus = (
  rss: (ReplicaSet | undefined)[],
  key: "replicas" | "readyReplicas" | "availableReplicas",
) => rss.reduce((n, rs) => n + (rs?.status?.[key] ?? 0), 0);
export const activeOf = (rss: ReplicaSet[]) => rss.filter((rs) => replicasOf(rs) > 0);

export const isRollingUpdate = (d: Deployment) => d.spec.strategy?.type !== "Recreate";

/** ResolveFenceposts: [maxSurge, maxUnavailable] for the Deployment's replicas. */
export function fenceposts(d: Deployment): [number, number] {
  if (!isRollingUpdate(d)) return [0, 0];
  const desired = d.spec.replicas ?? 1;
  const rolling = d.spec.strategy?.rollingUpdate ?? {};
  const surge = scaledValue(rolling.maxSurge ?? "25%", desired, true);
  const unavailable = scaledValue(rolling.maxUnavailable ?? "25%", desired, false);
  return surge === 0 && unavailable === 0 ? [0, 1] : [surge, unavailable];
}

export const maxSurge = (d: Deployment) => fenceposts(d)[0];

/** MaxUnavailable: at most the replicas. */
export function maxUnavailable(d: Deployment): number {
  const desired = d.spec.replicas ?? 1;
  if (!isRollingUpdate(d) || desired === 0) return 0;
  return Math.min(fenceposts(d)[1], desired);
}

/** SetReplicasAnnotations on a copy; returns whether they changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = { ...(rs.metadata.annotations ?? {}) };
  const before = JSON.stringify(annotations);
  annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
  annotations[MAX_REPLICAS_ANNOTATION] = String(max);
  rs.metadata.annotations = annotations;
  return JSON.stringify(annotations) !== before;
}

export function annotatedNumber(rs: ReplicaSet, key: string): number | undefined {
  const raw = rs.metadata.annotations?.[key];
  const n = Number(raw);
  return raw !== undefined && Number.isInteger(n) ? n : undefined;
}

/** IsSaturated: the new ReplicaSet has all the Deployment's replicas, all available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = d.spec.replicas ?? 1;
  return (
    annotatedNumber(rs, DESIRED_REPLICAS_ANNOTATION) === desired &&
    replicasOf(rs) === desired &&
    (rs.status?.availableReplicas ?? 0) === desired
  );
}
