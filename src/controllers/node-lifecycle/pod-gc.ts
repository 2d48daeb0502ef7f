/**
 * Pod GC and taint eviction, one reconciler per Pod key, carrying out
 * `decide()`:
 * - orphaned (its node is missing from the cache): after a quarantine of one
 *   grace period from the first sighting, a fresh GET of the node; when it is
 *   really gone the pod is marked Failed with `DisruptionTarget`
 *   (DeletionByPodGC) and deleted with grace 0, as kube's pod GC does (a pod
 *   whose nodeName no Node can have is not looked up, and is deleted even if
 *   its status cannot be written);
 * - terminating on an unreachable node: marked Failed and deleted with grace 0;
 * - evicted by a NoExecute taint: `DisruptionTarget` (DeletionByTaintManager),
 *   a graceful delete, and kube's `TaintManagerEviction` Event; on an
 *   unreachable node the rule above then removes it.
 * Every write is guarded by the pod's uid or resourceVersion.
 */

import { dns1123Subdomain, hasCode, rfc3339 } from "../../api/index.js";
import { type Client, type EventRecorder, getOptional } from "../../client/index.js";
import {
  DONE,
  type Informer,
  type Request,
  type ReconcileResult as Result,
  requestKey,
  type TypedReconciler,
} from "../../runtime/index.js";
import type { NodeHealth } from "./node-health.js";
import { decide } from "./pod-decision.js";
import { patchPodStatus } from "./pod-status.js";
import {
  EVICTED_CONDITION,
  isTerminal,
  type NodeView,
  ORPHANED_CONDITION,
  type PodCondition,
  type PodView,
} from "./types.js";

export interface PodGcDeps {
  client: Client;
  nodes: Informer;
  pods: Informer;
  health: NodeHealth;
  /** Records the taint eviction Events. */
  events: EventRecorder;
  /** How long a missing node is waited for before its pods count as orphaned, ms. */
  quarantineMs: number;
  now(): number;
}

type DisruptionCondition = typeof ORPHANED_CONDITION | typeof EVICTED_CONDITION;

export class PodGc implements TypedReconciler {
  /** Node name → when a pod bound to it was first seen without the node. */
  private readonly missingSince = new Map<string, number>();

  constructor(private readonly d: PodGcDeps) {}

  /** The node is in the cache (again): its quarantine starts over next time. */
  nodeAppeared(name: string): void {
    this.missingSince.delete(name);
  }

  async reconcile(req: Request): Promise<Result> {
    const key = requestKey(req);
    const d = this.d;
    const pod = d.pods.get(key) as PodView | undefined;
    if (!pod) return DONE;
    const nodeName = pod.spec.nodeName ?? "";
    const node = d.nodes.get(nodeName) as NodeView | undefined;
    const now = d.now();
    const decision = decide(
      pod,
      node,
      {
        silent: d.health.isSilent(nodeName, now),
        taintSince: (t) => d.health.taintSince(nodeName, t, now),
      },
      now,
    );
    switch (decision.kind) {
      case "keep":
        return decision.recheckAfterMs === undefined
          ? DONE
          : { requeueAfter: decision.recheckAfterMs };
      case "orphaned":
        return this.orphaned(pod, nodeName, now);
      case "forceDelete":
        await this.markFailedAndDelete(pod, now);
        return DONE;
      case "evict":
        await this.evict(pod, now);
        return DONE;
    }
  }

  private async orphaned(pod: PodView, nodeName: string, now: number): Promise<Result> {
    const since = this.missingSince.get(nodeName) ?? now;
    this.missingSince.set(nodeName, since);
    const left = since + this.d.quarantineMs - now;
    if (left > 0) return { requeueAfter: left };
    // A name no Node can have (bound before Bindings checked it) is not asked
    // for: `..` or `a/b` would name another URL than the node's.
    if (dns1123Subdomain(nodeName).length === 0) {
      const node = { apiVersion: "v1", kind: "Node", name: nodeName };
      // It exists: the node informer has not caught up yet.
      if (await getOptional(this.d.client, node)) return DONE;
    }
    await this.markFailedAndDelete(pod, now, ORPHANED_CONDITION);
    return DONE;
  }

  /** kube's markFailedAndDeletePodWithCondition. */
  private async markFailedAndDelete(
    pod: PodView,
    now: number,
    condition?: DisruptionCondition,
  ): Promise<void> {
    if (!isTerminal(pod)) {
      const status = {
        phase: "Failed",
        ...(condition ? { conditions: withCondition(pod, condition, now) } : {}),
      };
      try {
        if (!(await patchPodStatus(this.d.client, pod, status))) return;
      } catch (e) {
        // A pod whose stored spec its own validation now refuses (a nodeName no
        // node can have) takes no status write; it is deleted all the same.
        if (!hasCode(e, 422)) throw e;
      }
    }
    await this.remove(pod, 0);
  }

  private async evict(pod: PodView, now: number): Promise<void> {
    const has = pod.status?.conditions?.some(
      (c) => c.type === EVICTED_CONDITION.type && c.reason === EVICTED_CONDITION.reason,
    );
    if (!has) {
      const conditions = withCondition(pod, EVICTED_CONDITION, now);
      if (!(await patchPodStatus(this.d.client, pod, { conditions }))) return;
    }
    if (await this.remove(pod))
      this.d.events.event(
        pod,
        "Normal",
        "TaintManagerEviction",
        `Marking for deletion Pod ${pod.metadata.namespace}/${pod.metadata.name}`,
      );
  }

  /** Deletes this pod (by uid); false when it was already gone or replaced. */
  private async remove(pod: PodView, gracePeriodSeconds?: number): Promise<boolean> {
    try {
      await this.d.client.delete(
        {
          apiVersion: "v1",
          kind: "Pod",
          name: pod.metadata.name ?? "",
          namespace: pod.metadata.namespace,
        },
        {
          preconditions: { uid: pod.metadata.uid ?? "" },
          ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
        },
      );
      return true;
    } catch (e) {
      if (hasCode(e, 404) || hasCode(e, 409)) return false;
      throw e;
    }
  }
}

function withCondition(pod: PodView, c: DisruptionCondition, now: number): PodCondition[] {
  const others = (pod.status?.conditions ?? []).filter((o) => o.type !== c.type);
  return [...others, { ...c, lastTransitionTime: rfc3339(now) }];
}
