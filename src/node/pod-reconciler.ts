/**
 * The reconciler of the pods bound to this node (request `{namespace, name}`). It
 * ends workers whose pod is gone or was replaced (another uid under the same
 * name: processes stopped, directory removed, IP freed), creates the worker of
 * a new pod (an IP, a state file), syncs it, and reports its status. A pod
 * being deleted is stopped, given its final status, and deleted with grace 0.
 */

import { isDeepStrictEqual } from "node:util";
import { hasCode, POD, type Pod, type PodStatus, rfc3339 } from "../api/index.js";
import { type Client, ignoreNotFound, type ObjectRef } from "../client/index.js";
import {
  DONE,
  type ReconcileResult,
  type Request,
  requestKey,
  type TypedReconciler,
} from "../runtime/index.js";
import type { IpAllocator } from "./ip-allocator.js";
import { type PodState, saveState } from "./pod-state.js";
import { computeStatus } from "./pod-status.js";
import { PodWorker } from "./pod-worker.js";
import type { WorkerDeps } from "./worker-deps.js";

export interface PodReconcilerDeps {
  client: Client;
  nodeName: string;
  /** The informer's cache of this node's pods. */
  cached(key: string): Pod | undefined;
  workers: Map<string, PodWorker>;
  ips: IpAllocator;
  worker: WorkerDeps;
}

/** The status patch: every field the agent computed, and null for those it dropped. */
export function statusPatch(old: PodStatus | undefined, next: PodStatus): Record<string, unknown> {
  const patch: Record<string, unknown> = { ...next };
  for (const k of Object.keys(old ?? {})) if (!(k in next)) patch[k] = null;
  return { status: patch };
}

export class PodReconciler implements TypedReconciler {
  constructor(private readonly deps: PodReconcilerDeps) {}

  async reconcile(req: Request): Promise<ReconcileResult> {
    const d = this.deps;
    const key = requestKey(req);
    const pod = d.cached(key);
    for (const w of [...d.workers.values()]) {
      if (w.key !== key || w.uid === pod?.metadata.uid) continue;
      if (!w.terminate(w.state.terminationGracePeriodSeconds))
        return { requeueAfter: w.nextDeadline() ?? 500 };
      d.ips.release(w.state.podIP);
      w.remove();
      d.workers.delete(w.uid);
    }
    if (!pod || pod.spec.nodeName !== d.nodeName) return DONE;
    const worker = d.workers.get(pod.metadata.uid!) ?? this.create(pod);
    const next = await worker.sync(pod);
    const status = computeStatus(worker.view(pod));
    // Unchanged, or exactly what our last write stored (the apiserver may normalise it).
    const last = worker.lastStatusWrite;
    const ours =
      last !== undefined &&
      last.resourceVersion === pod.metadata.resourceVersion &&
      isDeepStrictEqual(status, last.status);
    if (!ours && !isDeepStrictEqual(status, pod.status ?? {}))
      await this.writeStatus(worker, pod, status);
    if (pod.metadata.deletionTimestamp && !worker.running) {
      await this.deleteNow(pod);
      return DONE;
    }
    return next !== undefined ? { requeueAfter: next } : DONE;
  }

  private create(pod: Pod): PodWorker {
    const state: PodState = {
      version: 1,
      uid: pod.metadata.uid!,
      namespace: pod.metadata.namespace!,
      name: pod.metadata.name!,
      podIP: this.deps.ips.allocate(),
      startTime: rfc3339(),
      terminationGracePeriodSeconds: pod.spec.terminationGracePeriodSeconds ?? 30,
      containers: {},
    };
    saveState(this.deps.worker.dirs, state);
    const worker = new PodWorker(this.deps.worker, state);
    this.deps.workers.set(state.uid, worker);
    return worker;
  }

  private async writeStatus(worker: PodWorker, pod: Pod, status: PodStatus): Promise<void> {
    const stored = await ignoreNotFound(
      this.deps.client.patchStatus<Pod>(podRef(pod), statusPatch(pod.status, status), {
        type: "merge",
        fieldManager: "hearth-node",
      }),
    );
    if (!stored) return; // the pod is gone
    worker.lastStatusWrite = { resourceVersion: stored.metadata.resourceVersion ?? "", status };
  }

  /** The processes are gone: remove the pod object (grace 0, only this uid). */
  private async deleteNow(pod: Pod): Promise<void> {
    try {
      await this.deps.client.delete(podRef(pod), {
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.metadata.uid! },
      });
    } catch (e) {
      if (!hasCode(e, 404) && !hasCode(e, 409)) throw e;
    }
  }
}

function podRef(pod: Pod): ObjectRef {
  return { ...POD, name: pod.metadata.name!, namespace: pod.metadata.namespace };
}
