/**
 * The ReplicaSet controller (kube's pkg/controller/replicaset): keeps
 * `spec.replicas` active pods that match the selector. Each reconcile reads
 * the ReplicaSet and its namespace's pods fresh from the API (not a cache), so
 * a pod created by the previous reconcile — or by a run killed with -9 after
 * the create but before anything else — is always counted: the API is the
 * expectations kube keeps in memory, and nothing is created twice. It claims
 * pods (adopts matching orphans, releases owned pods that no longer match),
 * creates missing pods in slow-start batches or deletes surplus ones in kube's
 * ranking order (`pod-ranking.ts`), then writes the status (`replica-set-status.ts`)
 * and, with minReadySeconds, requeues for when a ready pod becomes available.
 */
import type { Pod, ReplicaSet } from "../../api/index.js";
import { labelSelectorFromObject } from "../../api/index.js";
import { type Client, type EventRecorder, getOptional } from "../../client/index.js";
import { DONE, type Request, type Result, type TypedReconciler } from "../../runtime/index.js";
import { podsToDelete } from "./pod-ranking.js";
import { controllerRef, isActive, nextAvailableIn } from "./pod-state.js";
import { BURST_REPLICAS, ReplicaSetPodControl } from "./replica-set-pods.js";
import { replicaSetStatus } from "./replica-set-status.js";
import { sameStatus } from "./status-patch.js";

export class ReplicaSetReconciler implements TypedReconciler {
  readonly pods: ReplicaSetPodControl;

  constructor(
    private readonly client: Client,
    recorder: EventRecorder,
    private readonly now: () => number = Date.now,
  ) {
    this.pods = new ReplicaSetPodControl(client, recorder);
  }

  async reconcile(req: Request): Promise<Result> {
    const namespace = req.namespace ?? "";
    const rs = await getOptional<ReplicaSet>(this.client, {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      name: req.name,
      namespace,
    });
    if (!rs) return DONE;
    const owned = await this.claimPods(rs);
    const active = owned.filter(isActive);
    const manageError = rs.metadata.deletionTimestamp ? undefined : await this.manage(rs, active);
    const now = this.now();
    const status = replicaSetStatus(rs, active, manageError, now);
    if (!sameStatus(rs.status, status))
      await this.client.patchStatus(
        { apiVersion: "apps/v1", kind: "ReplicaSet", name: req.name, namespace },
        { status: { ...status, conditions: status.conditions ?? null } },
        { type: "merge" },
      );
    if (manageError !== undefined) throw manageError;
    const wait = nextAvailableIn(active, rs.spec.minReadySeconds ?? 0, now);
    return wait === undefined ? DONE : { requeueAfter: wait };
  }

  /** kube's ClaimPods: the pods this ReplicaSet controls after adoption and release. */
  private async claimPods(rs: ReplicaSet): Promise<Pod[]> {
    const list = await this.client.list<Pod>(
      { apiVersion: "v1", kind: "Pod" },
      { namespace: rs.metadata.namespace },
    );
    const selector = labelSelectorFromObject(rs.spec.selector ?? {});
    const empty =
      Object.keys(rs.spec.selector?.matchLabels ?? {}).length === 0 &&
      (rs.spec.selector?.matchExpressions ?? []).length === 0;
    const matches = (p: Pod) => !empty && selector.matches((k) => p.metadata.labels?.[k]);
    const claimed: Pod[] = [];
    for (const pod of list.items) {
      const ref = controllerRef(pod);
      if (ref) {
        if (ref.uid !== rs.metadata.uid) continue;
        if (matches(pod)) claimed.push(pod);
        else await this.pods.release(rs, pod);
        continue;
      }
      // An orphan: adopt it when it matches, unless either side is going away.
      if (!matches(pod) || pod.metadata.deletionTimestamp || rs.metadata.deletionTimestamp)
        continue;
      const adopted = await this.pods.adopt(rs, pod);
      if (adopted) claimed.push(adopted);
    }
    return claimed;
  }

  /** manageReplicas: create or delete the difference (at most BURST_REPLICAS). */
  private async manage(rs: ReplicaSet, active: Pod[]): Promise<unknown> {
    const diff = active.length - (rs.spec.replicas ?? 1);
    if (diff < 0) return this.pods.create(rs, Math.min(-diff, BURST_REPLICAS));
    if (diff > 0) {
      const doomed = podsToDelete(active, active, Math.min(diff, BURST_REPLICAS), this.now());
      return this.pods.delete(rs, doomed);
    }
    return undefined;
  }
}
