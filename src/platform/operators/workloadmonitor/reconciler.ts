/**
 * The WorkloadMonitor reconciler: reads the monitor and the pods of its
 * namespace from the cache, and writes the status `monitorStatus` computes
 * when it differs from the one stored. Level-based: which pod changed does
 * not matter, every pass counts them all.
 */
import type { Pod } from "../../../api/index.js";
import { ignoreNotFound, type StatusWriter } from "../../../client/index.js";
import type {
  Cache,
  ReconcileContext,
  Request,
  Scope,
  TypedReconciler,
} from "../../../runtime/index.js";
import { APPS_GROUP, LABEL_APP_GROUP } from "../../apps-api.js";
import { WORKLOAD_MONITOR, type WorkloadMonitor } from "../../workloads-api.js";
import { monitorStatus, sameStatus } from "./monitor-status.js";

export const POD = { apiVersion: "v1", kind: "Pod" };

/**
 * The pods a monitor may count: those of an app, which carry its lineage
 * labels (Cozystack's lineage webhook stamps them; in Hearth the engine stamps
 * what it applies and operators copy them to the pods they create). Scoping
 * the watch to them keeps it apart from the core controllers' watch of every
 * pod, so `hearth up` still holds one WATCH per resource and selector.
 */
export const MONITORED_PODS: Scope = { labelSelector: `${LABEL_APP_GROUP}=${APPS_GROUP}` };

export class WorkloadMonitorReconciler implements TypedReconciler {
  constructor(
    private readonly cache: Cache,
    private readonly client: StatusWriter,
  ) {}

  async reconcile(req: Request, { signal }: ReconcileContext): Promise<void> {
    const ref = { ...WORKLOAD_MONITOR, ...req };
    const monitor = await ignoreNotFound(
      this.cache.get<WorkloadMonitor>(ref, { signal, noCopy: true }),
    );
    if (!monitor || monitor.metadata.deletionTimestamp) return;
    const pods = await this.cache.list<Pod>(POD, {
      scope: MONITORED_PODS,
      namespace: monitor.metadata.namespace,
      noCopy: true,
      signal,
    });
    const status = monitorStatus(monitor, pods.items);
    if (sameStatus(monitor.status, status)) return;
    await this.client.patchStatus(ref, { status }, { type: "merge", signal });
  }
}
