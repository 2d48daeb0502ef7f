/**
 * The steps of a Deployment's rollout over its ReplicaSets, as kube's
 * deployment controller takes them (rolling.go, recreate.go, sync.go scale):
 * a Rollout holds the new and old ReplicaSets and replaces each one it scales
 * by the stored result, so later steps of one reconcile see earlier ones.
 * Scaling writes through `write` (an update guarded by resourceVersion: a
 * stale read fails with a conflict and the reconcile starts over).
 */
import {
  DESIRED_REPLICAS_ANNOTATION,
  type Deployment,
  MAX_REPLICAS_ANNOTATION,
  type ReplicaSet,
} from "../../api/index.js";
import {
  activeOf,
  annotatedNumber,
  byCreation,
  isRollingUpdate,
  isSaturated,
  maxSurge,
  maxUnavailable,
  replicasOf,
  setReplicasAnnotations,
  sumSpec,
  sumStatus,
} from "./deployment-util.js";

export type WriteReplicaSet = (rs: ReplicaSet, event?: string) => Promise<ReplicaSet>;

/** NewRSNewReplicas: how many replicas the new ReplicaSet may have now. */
export function newReplicaSetReplicas(
  d: Deployment,
  all: ReplicaSet[],
  newRS: ReplicaSet | undefined,
): number {
  const desired = d.spec.replicas ?? 1;
  if (!isRollingUpdate(d)) return desired;
  const current = sumSpec(all);
  const maxTotal = desired + maxSurge(d);
  if (current >= maxTotal) return replicasOf(newRS);
  return replicasOf(newRS) + Math.min(maxTotal - current, desired - replicasOf(newRS));
}

/** GetProportion via getReplicaSetFraction (proportional scaling of a rollout in progress). */
export function proportion(d: Deployment, rs: ReplicaSet, toAdd: number, added: number): number {
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const desired = d.spec.replicas ?? 1;
  let fraction: number;
  if (desired === 0) fraction = -replicasOf(rs);
  else {
    const total = desired + maxSurge(d);
    const annotated = annotatedNumber(rs, MAX_REPLICAS_ANNOTATION) ?? d.status?.replicas ?? 0;
    fraction = Math.round((replicasOf(rs) * total) / annotated) - replicasOf(rs);
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

export class Rollout {
  constructor(
    readonly d: Deployment,
    public newRS: ReplicaSet | undefined,
    public oldRSs: ReplicaSet[],
    private readonly write: WriteReplicaSet,
  ) {}

  get all(): ReplicaSet[] {
    return this.newRS ? [...this.oldRSs, this.newRS] : [...this.oldRSs];
  }

  private replace(before: ReplicaSet, after: ReplicaSet): void {
    if (this.newRS === before) this.newRS = after;
    this.oldRSs = this.oldRSs.map((rs) => (rs === before ? after : rs));
  }

  /** scaleReplicaSet: writes size and replica annotations when either changes. */
  async scaleTo(rs: ReplicaSet, size: number): Promise<boolean> {
    const desired = this.d.spec.replicas ?? 1;
    const copy = structuredClone(rs);
    const annotationsChanged = setReplicasAnnotations(copy, desired, desired + maxSurge(this.d));
    const from = replicasOf(rs);
    if (from === size && !annotationsChanged) return false;
    copy.spec.replicas = size;
    const how = from < size ? "up" : "down";
    const event =
      from === size
        ? undefined
        : `Scaled ${how} replica set ${rs.metadata.name} from ${from} to ${size}`;
    this.replace(rs, await this.write(copy, event));
    return from !== size;
  }

  /** scaleReplicaSetAndRecordEvent: nothing when the size is already right. */
  async scaleIfNeeded(rs: ReplicaSet, size: number): Promise<boolean> {
    return replicasOf(rs) === size ? false : this.scaleTo(rs, size);
  }

  /** reconcileNewReplicaSet. */
  async reconcileNew(): Promise<boolean> {
    const rs = this.newRS;
    if (!rs) return false;
    const desired = this.d.spec.replicas ?? 1;
    if (replicasOf(rs) === desired) return false;
    if (replicasOf(rs) > desired) return this.scaleIfNeeded(rs, desired);
    return this.scaleIfNeeded(rs, newReplicaSetReplicas(this.d, this.all, rs));
  }

  /** reconcileOldReplicaSets: unhealthy old pods first, then down to minAvailable. */
  async reconcileOld(): Promise<boolean> {
    const old = activeOf(this.oldRSs);
    if (sumSpec(old) === 0) return false;
    const minAvailable = (this.d.spec.replicas ?? 1) - maxUnavailable(this.d);
    const newUnavailable = replicasOf(this.newRS) - (this.newRS?.status?.availableReplicas ?? 0);
    const maxScaledDown = sumSpec(this.all) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let cleaned = 0;
    for (const rs of [...old].sort(byCreation)) {
      if (cleaned >= maxScaledDown) break;
      const available = rs.status?.availableReplicas ?? 0;
      if (replicasOf(rs) === 0 || replicasOf(rs) === available) continue;
      const n = Math.min(maxScaledDown - cleaned, replicasOf(rs) - available);
      await this.scaleIfNeeded(rs, replicasOf(rs) - n);
      cleaned += n;
    }
    return cleaned + (await this.scaleDownOld(minAvailable)) > 0;
  }

  /** scaleDownOldReplicaSetsForRollingUpdate: keep at least minAvailable available. */
  private async scaleDownOld(minAvailable: number): Promise<number> {
    const available = sumStatus(this.all, "availableReplicas");
    if (available <= minAvailable) return 0;
    const target = available - minAvailable;
    let done = 0;
    for (const rs of activeOf(this.oldRSs).sort(byCreation)) {
      if (done >= target) break;
      const n = Math.min(replicasOf(rs), target - done);
      await this.scaleIfNeeded(rs, replicasOf(rs) - n);
      done += n;
    }
    return done;
  }

  /** scale: a scaling event (replicas changed) applied to the live ReplicaSets. */
  async scale(): Promise<void> {
    const d = this.d;
    const desired = d.spec.replicas ?? 1;
    const active = activeOf(this.all);
    const only =
      active.length === 0
        ? (this.newRS ?? [...this.oldRSs].sort(byCreation).at(-1))
        : active.length === 1
          ? active[0]
          : undefined;
    if (only) {
      if (replicasOf(only) !== desired) await this.scaleIfNeeded(only, desired);
      return;
    }
    if (isSaturated(d, this.newRS)) {
      for (const rs of activeOf(this.oldRSs)) await this.scaleIfNeeded(rs, 0);
      return;
    }
    if (!isRollingUpdate(d)) return;
    const allowed = desired > 0 ? desired + maxSurge(d) : 0;
    const toAdd = allowed - sumSpec(active);
    // ReplicaSetsBySizeNewer when growing, BySizeOlder when shrinking: the largest first.
    const sign = toAdd > 0 ? -1 : 1;
    const ordered = [...active].sort(
      (a, b) => replicasOf(b) - replicasOf(a) || sign * byCreation(a, b),
    );
    const sizes = new Map<ReplicaSet, number>();
    let added = 0;
    for (const rs of ordered) {
      const p = toAdd !== 0 ? proportion(d, rs, toAdd, added) : 0;
      sizes.set(rs, replicasOf(rs) + p);
      added += p;
    }
    for (const [i, rs] of ordered.entries()) {
      let size = sizes.get(rs) ?? 0;
      if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - added);
      await this.scaleTo(rs, size);
    }
  }

  /** Whether this ReplicaSet was last scaled for other replicas than the Deployment's (isScalingEvent). */
  static scalingEvent(d: Deployment, all: ReplicaSet[]): boolean {
    return activeOf(all).some((rs) => {
      const want = annotatedNumber(rs, DESIRED_REPLICAS_ANNOTATION);
      return want !== undefined && want !== (d.spec.replicas ?? 1);
    });
  }
}
