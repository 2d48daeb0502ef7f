/**
 * The reconciler of the pods bound to this node (request `{namespace, name}`). It
 * ends workers whose pod is gone or was replaced (another uid under the same
 * name: runs stopped, then the pod removed from the runtime), creates the
 * worker of a new pod (its place from the runtime: IP, sandbox), syncs it, and
 * reports its status. A pod
 * being deleted is stopped, given its final status, and deleted with grace 0.
 */

import { isDeepStrictEqual } from "node:util";
import { hasCode, POD, type Pod, type PodStatus } from "../api/index.js";
import { type Client, ignoreNotFound, type ObjectRef } from "../client/index.js";
import {
  DONE,
  type ReconcileResult,
  type Request,
  requestKey,
  type TypedReconciler,
} from "../runtime/index.js";
import type { PodState } from "./pod-state.js";
import { computeStatus } from "./pod-status.js";
import { PodWorker } from "./pod-worker.js";
import type { WorkerDeps } from "./worker-deps.js";

export interface PodReconcilerDeps {
  client: Client;
  nodeName: string;
  /** The informer's cache of this node's pods. */
  cached(key: string): Pod | undefined;
  workers: Map<string, PodWorker>;
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
      await d.worker.runtime.refresh();
      if (!w.terminate(w.state.terminationGracePeriodSeconds))
        return { requeueAfter: w.nextDeadline() ?? 500 };
      await w.remove();
      d.workers.delete(w.uid);
    }
    if (!pod || pod.spec.nodeName !== d.nodeName) return DONE;
    const worker = d.workers.get(pod.metadata.uid!) ?? (await this.create(pod));
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

  private async create(pod: Pod): Promise<PodWorker> {
    let state: PodState;
    try {
      state = await this.deps.worker.runtime.createPod(pod);
    } catch (e) {
      const message = `Failed to create pod sandbox: ${(e as Error).message}`;
      this.deps.worker.event(pod, "Warning", "FailedCreatePodSandBox", message);
      throw e;
    }
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
