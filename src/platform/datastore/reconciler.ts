/**
 * The DataStore reconciler. Each pass: the control planes that use it (from
 * the TenantControlPlane cache's index, see `controller.ts`), its finalizer,
 * its health (`etcd-probe.ts`: reachable and authenticated, by real calls;
 * other drivers are `UnsupportedDriver`, Hearth runs etcd only), its status.
 * Deletion: the finalizer `kamaji.clastix.io/TenantControlPlane` (Kamaji's
 * name) goes as soon as no control plane uses the DataStore, whatever its
 * health, since nothing else could ever release it; until then
 * `DeletionAllowed=False` names the users. Health is looked at again every
 * `recheckMs` (no event tells of etcd going away) and whenever a Secret it
 * reads changes.
 */
import type { Client, EventRecorder } from "../../client/index.js";
import { ignoreNotFound } from "../../client/index.js";
import {
  type Cache,
  type Condition,
  DONE,
  findCondition,
  type ReconcileContext,
  type Request,
  type Result,
  type TypedReconciler,
} from "../../runtime/index.js";
import { ContentNotFound } from "./content-refs.js";
import { DATASTORE_API_VERSION, type DataStore } from "./crd.js";
import { dataStoreStatus, type Health, READY, sameStatus } from "./datastore-status.js";
import { resolveEndpoints } from "./etcd-endpoints.js";
import { probeEtcd } from "./etcd-probe.js";
import { readDataStoreTls } from "./tls-credentials.js";

/** Kamaji's `DataStoreTCPFinalizer`. */
export const DATASTORE_FINALIZER = "kamaji.clastix.io/TenantControlPlane";
export const DATASTORE = { apiVersion: DATASTORE_API_VERSION, kind: "DataStore" } as const;

export interface DataStoreReconcilerOptions {
  /** How often health is checked again, ms (default 30 s). */
  recheckMs?: number;
  /** The control planes (`namespace/name`, sorted) that use DataStore `name`. */
  usersOf(name: string): string[];
}

export class DataStoreReconciler implements TypedReconciler {
  private readonly recheckMs: number;

  constructor(
    private readonly client: Client,
    private readonly cache: Cache,
    private readonly events: EventRecorder,
    private readonly opts: DataStoreReconcilerOptions,
  ) {
    this.recheckMs = opts.recheckMs ?? 30_000;
  }

  async reconcile({ name }: Request, { signal }: ReconcileContext): Promise<Result> {
    const ref = { ...DATASTORE, name };
    const ds = await ignoreNotFound(this.cache.get<DataStore>(ref, { signal }));
    if (!ds) return DONE;
    const finalizers = ds.metadata.finalizers ?? [];
    const usedBy = this.opts.usersOf(name);
    if (ds.metadata.deletionTimestamp) {
      if (!finalizers.includes(DATASTORE_FINALIZER)) return DONE;
      if (usedBy.length === 0) {
        await this.setFinalizers(
          ds,
          finalizers.filter((f) => f !== DATASTORE_FINALIZER),
          signal,
        );
        return DONE;
      }
    } else if (!finalizers.includes(DATASTORE_FINALIZER))
      await this.setFinalizers(ds, [...finalizers, DATASTORE_FINALIZER], signal);

    const health = await this.health(ds, signal);
    const status = dataStoreStatus(ds, usedBy, health);
    if (!sameStatus(ds, status)) {
      this.report(ds, health);
      await this.client.patchStatus(ref, { status }, { type: "merge", signal });
    }
    return { requeueAfter: this.recheckMs };
  }

  private async health(ds: DataStore, signal: AbortSignal): Promise<Health> {
    if (ds.spec.driver !== "etcd")
      return {
        ready: false,
        reason: "UnsupportedDriver",
        message: `driver ${ds.spec.driver} is not supported: Hearth runs control planes on etcd only`,
      };
    try {
      const tls = await readDataStoreTls(this.cache, ds.spec, signal);
      const targets = await resolveEndpoints(this.cache, ds.spec.endpoints, signal);
      return await probeEtcd(targets, tls);
    } catch (e) {
      if (e instanceof ContentNotFound) return { ready: false, ...e.notReady };
      throw e;
    }
  }

  /** An Event when Ready changes (or first becomes known). */
  private report(ds: DataStore, health: Health): void {
    const was = findCondition(ds.status?.conditions as Condition[] | undefined, READY);
    const status = health.ready ? "True" : "False";
    const reason = health.ready ? "Authenticated" : health.reason;
    if (was?.status === status && was.reason === reason) return;
    if (health.ready) this.events.event(ds, "Normal", "Ready", health.message);
    else this.events.event(ds, "Warning", health.reason, health.message);
  }

  private async setFinalizers(ds: DataStore, finalizers: string[], signal: AbortSignal) {
    await this.client.patch(
      { ...DATASTORE, name: ds.metadata.name! },
      { metadata: { finalizers, resourceVersion: ds.metadata.resourceVersion } },
      { type: "merge", signal },
    );
  }
}
