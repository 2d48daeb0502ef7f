/**
 * The StatefulSet controller (kube's pkg/controller/statefulset): reads the set,
 * its pods (controlled by its uid; orphans named `<set>-<n>` that match the
 * selector are adopted), its claims and its ControllerRevisions fresh from the
 * API, makes sure the update revision exists, runs one pass of
 * `StatefulSetSync`, writes the status and truncates the revision history.
 * Level-based: it never asks what changed, only what is, so any number of
 * crashes between its writes converge (see docs/workloads-stateful.md).
 * A StatefulSet being deleted is left to the garbage collector.
 */

import { isDeepStrictEqual } from "node:util";
import type { ControllerRevision, Pod, StatefulSet } from "../../api/index.js";
import { type Client, type EventRecorder, getOptional, refOf } from "../../client/index.js";
import { DONE, type Request, type Result, type TypedReconciler } from "../../runtime/index.js";
import { newControllerRef } from "../controller-ref.js";
import { ensureUpdateRevision, listRevisions, truncateHistory } from "../history/index.js";
import { controllerRef, selectorString } from "../jobs/job-pods.js";
import { type Claim, ordinalOf, revisionOf } from "./stateful-pods.js";
import { computeStatus } from "./stateful-set-status.js";
import { StatefulSetSync } from "./stateful-set-sync.js";

export interface StatefulSetControllerOptions {
  /** The clock (epoch ms). */
  now?: () => number;
}

export class StatefulSetReconciler implements TypedReconciler {
  private readonly now: () => number;

  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
    opts: StatefulSetControllerOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  async reconcile(req: Request): Promise<Result> {
    const set = await getOptional<StatefulSet>(this.client, {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      name: req.name,
      namespace: req.namespace ?? "",
    });
    if (!set || set.metadata.deletionTimestamp) return DONE;
    const [pods, claims, revisions] = await Promise.all([
      this.podsOf(set),
      this.claimsOf(set),
      listRevisions(this.client, set),
    ]);
    const { revision: update, collisionCount } = await ensureUpdateRevision(
      this.client,
      set,
      revisions,
    );
    const all = revisions.some((r) => r.metadata.uid === update.metadata.uid)
      ? revisions.map((r) => (r.metadata.uid === update.metadata.uid ? update : r))
      : [...revisions, update];
    const current: ControllerRevision =
      all.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
    const now = this.now();
    const waitMs = await new StatefulSetSync(this.client, this.recorder, {
      set,
      pods,
      claims,
      current,
      update,
      now,
    }).run();
    const live = [...pods.values()].filter((p) => !p.metadata.deletionTimestamp);
    const status = computeStatus(
      set,
      [...pods.values()],
      current.metadata.name!,
      update.metadata.name!,
      collisionCount,
      now,
    );
    if (!isDeepStrictEqual(status, set.status ?? {}))
      await this.client.updateStatus({ ...set, status });
    const inUse = new Set([status.currentRevision!, status.updateRevision!]);
    for (const p of live) inUse.add(revisionOf(p) ?? "");
    await truncateHistory(this.client, set, all, inUse);
    return waitMs !== undefined && waitMs > 0 ? { requeueAfter: waitMs } : DONE;
  }

  /** The set's pods by name, adopting orphans of its name pattern that match its selector. */
  private async podsOf(set: StatefulSet): Promise<Map<string, Pod>> {
    const list = await this.client.list<Pod>(
      { apiVersion: "v1", kind: "Pod" },
      { namespace: set.metadata.namespace, labelSelector: selectorString(set.spec.selector) },
    );
    const out = new Map<string, Pod>();
    for (const pod of list.items) {
      const ref = controllerRef(pod);
      if (ref?.uid === set.metadata.uid) out.set(pod.metadata.name!, pod);
      else if (!ref && !pod.metadata.deletionTimestamp && ordinalOf(set, pod) !== undefined)
        out.set(pod.metadata.name!, await this.adopt(set, pod));
    }
    return out;
  }

  private adopt(set: StatefulSet, pod: Pod): Promise<Pod> {
    const owner = newControllerRef(set);
    const patch = {
      metadata: {
        ownerReferences: [...(pod.metadata.ownerReferences ?? []), owner],
        uid: pod.metadata.uid,
        resourceVersion: pod.metadata.resourceVersion,
      },
    };
    return this.client.patch<Pod>(refOf(pod), patch, { type: "merge" });
  }

  private async claimsOf(set: StatefulSet): Promise<Map<string, Claim>> {
    if ((set.spec.volumeClaimTemplates ?? []).length === 0) return new Map();
    const list = await this.client.list<Claim>(
      { apiVersion: "v1", kind: "PersistentVolumeClaim" },
      { namespace: set.metadata.namespace },
    );
    return new Map(list.items.map((c) => [c.metadata.name!, c]));
  }
}
