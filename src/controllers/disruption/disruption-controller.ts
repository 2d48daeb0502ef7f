/**
 * The disruption controller (kube's pkg/controller/disruption): one reconcile
 * per PodDisruptionBudget, woken by the budget and by every pod it selects
 * (before or after a change). It counts the selected pods from the shared Pod
 * cache, asks the controllers' `/scale` when the budget is a percentage or
 * maxUnavailable (`expected-scale.ts`), forgets evictions older than 2 minutes
 * that did not delete their pod, and writes `status` on the resourceVersion it
 * read (a conflict is simply retried). When the status cannot be computed it
 * fails safe as kube does: disruptionsAllowed 0 and DisruptionAllowed=False
 * with reason SyncFailed and the error as message; the eviction handler then
 * refuses every eviction the budget guards.
 */
import type { KubeObject } from "../../api/index.js";
import {
  budgetSelects,
  DISRUPTION_ALLOWED,
  hasCode,
  PDB,
  type Pod,
  type PodDisruptionBudget,
  rfc3339,
  SYNC_FAILED,
  withCondition,
} from "../../api/index.js";
import { type Client, EventRecorder } from "../../client/index.js";
import {
  DONE,
  type Informer,
  type Manager,
  onStop,
  type Request,
  type Result,
  requestOf,
  type TypedReconciler,
} from "../../runtime/index.js";
import {
  countHealthy,
  disruptedPodMap,
  expectedCounts,
  needsScale,
  nextStatus,
} from "./budget-status.js";
import { apiScaleFinder, expectedScale, type ScaleFinder } from "./expected-scale.js";

const POD = { apiVersion: "v1", kind: "Pod" };

export interface DisruptionControllerOptions {
  log?(msg: string, err?: unknown): void;
  /** Reads a controller's scale (default: its `/scale` over the API). */
  scales?: ScaleFinder;
}

export class DisruptionController implements TypedReconciler {
  private readonly events: EventRecorder;
  private readonly scales: ScaleFinder;
  private budgets: Informer | undefined;
  private pods: Informer | undefined;
  private now: () => number = Date.now;

  constructor(
    private readonly client: Client,
    opts: DisruptionControllerOptions = {},
  ) {
    const log = opts.log ?? (() => {});
    this.events = new EventRecorder(client, {
      component: "controllermanager",
      onError: (e) => log("disruption controller: event", e),
    });
    this.scales = opts.scales ?? apiScaleFinder(client);
  }

  register(manager: Manager): void {
    this.budgets = manager.cache.informer(PDB).informer;
    this.pods = manager.cache.informer(POD).informer;
    this.now = () => manager.clock.now();
    manager
      .controller("disruption")
      .workers(2)
      .for(PDB)
      .watches(POD, (pod) => this.budgetsOf(pod))
      .complete(this);
    manager.add(onStop(() => this.events.flush()));
  }

  /** The budgets that select the pod (kube warns when there are several; each is kept up to date). */
  private budgetsOf(pod: KubeObject): Request[] {
    return (this.budgets?.list() ?? [])
      .filter((b) => budgetSelects(b as PodDisruptionBudget, pod))
      .map((b) => requestOf(b));
  }

  async reconcile(req: Request): Promise<Result> {
    const pdb = this.budgets?.get(`${req.namespace}/${req.name}`) as
      | PodDisruptionBudget
      | undefined;
    if (!pdb) return DONE;
    try {
      return await this.sync(pdb);
    } catch (e) {
      if (hasCode(e, 409)) throw e;
      await this.failSafe(pdb, e);
      throw e;
    }
  }

  private async sync(pdb: PodDisruptionBudget): Promise<Result> {
    const pods = ((this.pods?.list() ?? []) as Pod[]).filter((p) => budgetSelects(pdb, p));
    if (pods.length === 0) this.events.event(pdb, "Normal", "NoPods", "No matching pods found");
    let scale = 0;
    if (needsScale(pdb)) {
      const found = await expectedScale(pods, this.scales);
      scale = found.expected;
      if (found.unmanaged.length > 0)
        this.events.event(
          pdb,
          "Warning",
          "UnmanagedPods",
          `Pods selected by this PodDisruptionBudget (selector: ${JSON.stringify(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
        );
    }
    const { expectedCount, desiredHealthy } = expectedCounts(pdb, pods.length, scale);
    const now = this.now();
    const disrupted = disruptedPodMap(pdb, pods, now);
    for (const pod of disrupted.expired)
      this.events.event(
        pod,
        "Warning",
        "NotDeleted",
        `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.name} to be deleted but it wasn't`,
      );
    const status = nextStatus(
      pdb,
      {
        currentHealthy: countHealthy(pods, disrupted.kept, now),
        desiredHealthy,
        expectedCount,
        disruptedPods: disrupted.kept,
      },
      now,
    );
    if (status) await this.client.updateStatus({ ...pdb, status });
    return disrupted.recheckAt !== undefined
      ? { requeueAfter: Math.max(0, disrupted.recheckAt - now) }
      : DONE;
  }

  /** kube's failSafe: nothing may be disrupted while the status cannot be computed. */
  private async failSafe(pdb: PodDisruptionBudget, err: unknown): Promise<void> {
    const status = pdb.status ?? {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    };
    const next = withCondition(
      { ...status, disruptionsAllowed: 0 },
      {
        type: DISRUPTION_ALLOWED,
        status: "False",
        reason: SYNC_FAILED,
        message: err instanceof Error ? err.message : String(err),
        lastTransitionTime: rfc3339(this.now()),
        ...(status.observedGeneration !== undefined
          ? { observedGeneration: status.observedGeneration }
          : {}),
      },
    );
    await this.client.updateStatus({ ...pdb, status: next });
  }
}
