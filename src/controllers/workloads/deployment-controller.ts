/**
 * The Deployment controller (kube's pkg/controller/deployment): owns
 * ReplicaSets named `<deployment>-<pod-template-hash>` and moves replicas from
 * the old ones to the one of the current template — RollingUpdate within
 * maxSurge / maxUnavailable, or Recreate (old pods all gone before new ones) —
 * scales them proportionally when replicas change mid-rollout, keeps
 * revisionHistoryLimit old ReplicaSets, stops while paused, and reports the
 * Available and Progressing conditions (`deployment-status.ts`). Every
 * reconcile reads the Deployment and its ReplicaSets fresh from the API and
 * computes each step from them, so a run killed between two steps (a
 * ReplicaSet created, one scaled, the status not yet written) is finished by
 * the next one without duplicating anything; see docs/workloads.md.
 */
import {
  type Deployment,
  type DeploymentStatus,
  labelSelectorFromObject,
  type Pod,
  REVISION_ANNOTATION,
  type ReplicaSet,
} from "../../api/index.js";
import {
  type Client,
  type EventRecorder,
  errorText,
  getOptional,
  ignoreNotFound,
  refOf,
} from "../../client/index.js";
import { DONE, type Request, type Result, type TypedReconciler } from "../../runtime/index.js";
import {
  claimReplicaSets,
  createReplicaSet,
  maxRevision,
  newReplicaSetFor,
  setNewReplicaSetAnnotations,
} from "./deployment-replica-sets.js";
import { Rollout } from "./deployment-rollout.js";
import {
  calculateStatus,
  deadlineIn,
  FOUND_NEW_RS,
  getCondition,
  hasProgressDeadline,
  isComplete,
  NEW_RS_CREATED,
  newCondition,
  rolloutStatus,
  setCondition,
  TIMED_OUT,
} from "./deployment-status.js";
import {
  activeOf,
  revisionOf,
  sameTemplate,
  splitReplicaSets,
  sumStatus,
} from "./deployment-util.js";
import { controllerRef } from "./pod-state.js";
import { sameStatus } from "./status-patch.js";

const DEPLOYMENT = { apiVersion: "apps/v1", kind: "Deployment" };

export class DeploymentReconciler implements TypedReconciler {
  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
    private readonly now: () => number = Date.now,
  ) {}

  async reconcile(req: Request): Promise<Result> {
    const namespace = req.namespace ?? "";
    const d = await getOptional<Deployment>(this.client, {
      ...DEPLOYMENT,
      name: req.name,
      namespace,
    });
    if (!d) return DONE;
    const sel = d.spec.selector ?? {};
    if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
      this.recorder.event(
        d,
        "Warning",
        "SelectingAll",
        "This deployment is selecting all pods. A non-empty selector is required.",
      );
      return DONE;
    }
    const rsList = await claimReplicaSets(this.client, d);
    return new DeploymentSync(this.client, this.recorder, d, rsList, this.now()).run();
  }
}

/** One reconcile of one Deployment: `d` is a working copy whose status and annotations it edits. */
class DeploymentSync {
  private readonly d: Deployment;
  private annotationsChanged = false;

  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
    private readonly stored: Deployment,
    private readonly rsList: ReplicaSet[],
    private readonly now: number,
  ) {
    this.d = structuredClone(stored);
    this.d.status ??= {};
  }

  async run(): Promise<Result> {
    const d = this.d;
    if (d.metadata.deletionTimestamp) return this.statusOnly();
    this.checkPausedConditions();
    if (d.spec.paused) return this.scaleOnly();
    const { newRS, oldRSs } = splitReplicaSets(d, this.rsList);
    if (Rollout.scalingEvent(d, newRS ? [...oldRSs, newRS] : oldRSs)) return this.scaleOnly();
    return d.spec.strategy?.type === "Recreate" ? this.recreate() : this.rolling();
  }

  /** rolloutRolling. */
  private async rolling(): Promise<Result> {
    const r = await this.syncRevision(true);
    if ((await r.reconcileNew()) || (await r.reconcileOld())) return this.finishRollout(r);
    if (isComplete(this.d, this.stored.status ?? {})) await this.cleanup(r);
    return this.finishRollout(r);
  }

  /** rolloutRecreate: scale old to 0, wait for their pods to go, then scale the new one up. */
  private async recreate(): Promise<Result> {
    let r = await this.syncRevision(false);
    let scaledDown = false;
    for (const rs of activeOf(r.oldRSs)) if (await r.scaleIfNeeded(rs, 0)) scaledDown = true;
    if (scaledDown || (await this.oldPodsRunning(r))) return this.finishRollout(r);
    if (!r.newRS) r = await this.syncRevision(true);
    if (r.newRS) await r.scaleIfNeeded(r.newRS, this.d.spec.replicas ?? 1);
    if (isComplete(this.d, this.stored.status ?? {})) await this.cleanup(r);
    return this.finishRollout(r);
  }

  /** sync: a scaling event or a paused Deployment — resize, never roll. */
  private async scaleOnly(): Promise<Result> {
    const r = await this.syncRevision(false);
    await r.scale();
    if (this.d.spec.paused) await this.cleanup(r);
    return this.finish(calculateStatus(this.d, r.all, r.newRS, this.now));
  }

  private async statusOnly(): Promise<Result> {
    const r = await this.syncRevision(false);
    return this.finish(calculateStatus(this.d, r.all, r.newRS, this.now));
  }

  private finishRollout(r: Rollout): Promise<Result> {
    return this.finish(rolloutStatus(this.d, r.all, r.newRS, this.now));
  }

  /** Writes the revision annotation and the status when they changed; requeues for the deadline. */
  private async finish(status: DeploymentStatus): Promise<Result> {
    const ref = refOf(this.stored);
    if (this.annotationsChanged) {
      const revision = this.d.metadata.annotations?.[REVISION_ANNOTATION];
      await this.client.patch(
        ref,
        { metadata: { annotations: { [REVISION_ANNOTATION]: revision } } },
        { type: "merge" },
      );
    }
    if (!sameStatus(this.stored.status, status))
      await this.client.patchStatus(
        ref,
        { status: { ...status, conditions: status.conditions ?? null } },
        { type: "merge" },
      );
    const wait = this.d.spec.paused ? undefined : deadlineIn(this.d, status, this.now);
    return wait === undefined ? DONE : { requeueAfter: wait };
  }

  /** checkPausedConditions: Progressing Unknown DeploymentPaused / DeploymentResumed. */
  private checkPausedConditions(): void {
    const d = this.d;
    if (!hasProgressDeadline(d)) return;
    const c = getCondition(d.status, "Progressing");
    if (c?.reason === TIMED_OUT) return;
    const pausedSet = c?.reason === "DeploymentPaused";
    if (d.spec.paused && !pausedSet)
      setCondition(
        d.status!,
        newCondition(
          "Progressing",
          "Unknown",
          "DeploymentPaused",
          "Deployment is paused",
          this.now,
        ),
      );
    else if (!d.spec.paused && pausedSet)
      setCondition(
        d.status!,
        newCondition(
          "Progressing",
          "Unknown",
          "DeploymentResumed",
          "Deployment is resumed",
          this.now,
        ),
      );
  }

  private setRevision(revision: string | undefined): void {
    if (revision === undefined || this.d.metadata.annotations?.[REVISION_ANNOTATION] === revision)
      return;
    this.d.metadata.annotations = {
      ...(this.d.metadata.annotations ?? {}),
      [REVISION_ANNOTATION]: revision,
    };
    this.annotationsChanged = true;
  }

  /** getAllReplicaSetsAndSyncRevision, creating the new ReplicaSet when asked. */
  private async syncRevision(create: boolean): Promise<Rollout> {
    const d = this.d;
    const { newRS: found, oldRSs } = splitReplicaSets(d, this.rsList);
    const revision = maxRevision(oldRSs) + 1;
    const write = (rs: ReplicaSet, event?: string) => this.writeReplicaSet(rs, event);
    if (found) {
      const copy = structuredClone(found);
      const changed = setNewReplicaSetAnnotations(d, copy, revision, true);
      let newRS = found;
      if (changed || (copy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0)) {
        copy.spec.minReadySeconds = d.spec.minReadySeconds ?? 0;
        newRS = await this.client.update(copy);
      }
      this.setRevision(newRS.metadata.annotations?.[REVISION_ANNOTATION]);
      if (hasProgressDeadline(d) && !getCondition(d.status, "Progressing"))
        setCondition(
          d.status!,
          newCondition(
            "Progressing",
            "True",
            FOUND_NEW_RS,
            `Found new replica set "${newRS.metadata.name}"`,
            this.now,
          ),
        );
      return new Rollout(d, newRS, oldRSs, write);
    }
    if (!create) return new Rollout(d, undefined, oldRSs, write);
    const rs = newReplicaSetFor(d, oldRSs, revision);
    const outcome = await this.create(rs);
    if (outcome.kind === "created" && (rs.spec.replicas ?? 0) > 0)
      this.recorder.event(
        d,
        "Normal",
        "ScalingReplicaSet",
        `Scaled up replica set ${rs.metadata.name} from 0 to ${rs.spec.replicas}`,
      );
    this.setRevision(String(revision));
    if (outcome.kind === "created" && hasProgressDeadline(d))
      setCondition(
        d.status!,
        newCondition(
          "Progressing",
          "True",
          NEW_RS_CREATED,
          `Created new replica set "${rs.metadata.name}"`,
          this.now,
        ),
      );
    return new Rollout(d, outcome.rs, oldRSs, write);
  }

  /** Creates the new ReplicaSet; a collision bumps collisionCount and retries later. */
  private async create(rs: ReplicaSet): Promise<{ kind: "created" | "existing"; rs: ReplicaSet }> {
    const d = this.d;
    let outcome: Awaited<ReturnType<typeof createReplicaSet>>;
    try {
      outcome = await createReplicaSet(this.client, d, rs, (found) =>
        sameTemplate(found.spec.template, d.spec.template),
      );
    } catch (e) {
      const msg = `Failed to create new replica set "${rs.metadata.name}": ${errorText(e)}`;
      if (hasProgressDeadline(d)) {
        setCondition(
          d.status!,
          newCondition("Progressing", "False", "ReplicaSetCreateError", msg, this.now),
        );
        await this.client.patchStatus(
          refOf(this.stored),
          { status: { conditions: d.status!.conditions } },
          { type: "merge" },
        );
      }
      this.recorder.event(d, "Warning", "ReplicaSetCreateError", msg);
      throw e;
    }
    if (outcome.kind !== "collision") return outcome;
    const count = (d.status?.collisionCount ?? 0) + 1;
    await this.client.patchStatus(
      refOf(this.stored),
      { status: { collisionCount: count } },
      { type: "merge" },
    );
    throw new Error(
      `replica set "${rs.metadata.name}" already exists with another template: collisionCount is now ${count}`,
    );
  }

  private async writeReplicaSet(rs: ReplicaSet, event?: string): Promise<ReplicaSet> {
    const stored = await this.client.update(rs);
    if (event) this.recorder.event(this.d, "Normal", "ScalingReplicaSet", event);
    return stored;
  }

  /** oldPodsRunning: any old ReplicaSet still counts pods, or has a pod not yet finished. */
  private async oldPodsRunning(r: Rollout): Promise<boolean> {
    if (sumStatus(r.oldRSs, "replicas") > 0) return true;
    const old = new Set(r.oldRSs.map((rs) => rs.metadata.uid));
    const selector = labelSelectorFromObject(this.d.spec.selector ?? {});
    const pods = await this.client.list<Pod>(
      { apiVersion: "v1", kind: "Pod" },
      { namespace: this.d.metadata.namespace },
    );
    return pods.items.some((p) => {
      if (!selector.matches((k) => p.metadata.labels?.[k])) return false;
      if (!old.has(controllerRef(p)?.uid)) return false;
      return p.status?.phase !== "Failed" && p.status?.phase !== "Succeeded";
    });
  }

  /** cleanupDeployment: delete the oldest scaled-down ReplicaSets beyond revisionHistoryLimit. */
  private async cleanup(r: Rollout): Promise<void> {
    const limit = this.d.spec.revisionHistoryLimit;
    if (limit === undefined) return;
    const alive = r.oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
    const diff = alive.length - limit;
    if (diff <= 0) return;
    const sorted = [...alive].sort(
      (a, b) =>
        revisionOf(a) - revisionOf(b) ||
        (Date.parse(a.metadata.creationTimestamp ?? "") || 0) -
          (Date.parse(b.metadata.creationTimestamp ?? "") || 0),
    );
    for (const rs of sorted.slice(0, diff)) {
      const busy = (rs.status?.replicas ?? 0) !== 0 || (rs.spec.replicas ?? 0) !== 0;
      if (busy || (rs.metadata.generation ?? 1) > (rs.status?.observedGeneration ?? 0)) continue;
      await ignoreNotFound(this.client.delete(refOf(rs)));
    }
  }
}
