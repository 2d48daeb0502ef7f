/**
 * Runs the ResourceQuota reconciler: an informer on every ResourceQuota enqueues
 * a quota when it appears or its spec changes (not on status writes, which are
 * this controller's and admission's own); the counted kinds enqueue the quotas
 * of a namespace when an object there goes away or costs less; and every quota
 * is measured again each resync period (kube's `--resource-quota-sync-period`,
 * 5 minutes, on the Manager's Clock), which also releases usage charged for
 * writes that then failed. (A pod's charge ends at its deletionTimestamp plus
 * grace, which the apiserver writes by the machine's time: the reconciler
 * measures that on the machine's clock.)
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/index.js";
import {
  type GroupResource,
  listsEqual,
  type ResourceQuota,
  resourcesTracked,
} from "../../api/index.js";
import type { Client } from "../../client/index.js";
import {
  type BuiltController,
  type Informer,
  type Manager,
  type Request,
  requestOf,
  runOnOwnManager,
} from "../../runtime/index.js";
import { CountedKinds } from "./counted-kinds.js";
import { QuotaReconciler } from "./quota-reconciler.js";

export interface QuotaControllerOptions {
  log?(msg: string, err?: unknown): void;
  /** How often every quota is measured again, ms (default 5 minutes). */
  resyncMs?: number;
}

const RESOURCE_QUOTA = { apiVersion: "v1", kind: "ResourceQuota" };

/** The quota's spec changed, or its enforced limits do not match it yet. */
function needsSync(old: KubeObject, obj: KubeObject): boolean {
  const q = obj as ResourceQuota;
  return (
    !isDeepStrictEqual((old as ResourceQuota).spec, q.spec) ||
    !listsEqual(q.status?.hard ?? {}, q.spec?.hard ?? {})
  );
}

export class QuotaController {
  constructor(
    private readonly client: Client,
    private readonly opts: QuotaControllerOptions = {},
  ) {}

  /** Runs the controller and its resync on `manager`, the counted kinds on its shared informers. */
  register(manager: Manager): void {
    const quotas = manager.cache.informer(RESOURCE_QUOTA).informer;
    const stopping = new AbortController();
    const kinds = new CountedKinds(this.client, manager.cache, stopping.signal, (namespace, gr) => {
      for (const req of tracking(quotas, namespace, gr)) controller.loop.enqueue(req);
    });
    const controller: BuiltController = manager
      .controller("resourcequota")
      .workers(2)
      // Not on status writes (this controller's and admission's own), not on deletion.
      .for(RESOURCE_QUOTA, { predicates: [{ update: needsSync, delete: () => false }] })
      .complete(new QuotaReconciler(this.client, kinds));
    manager.add({
      start: async (signal) => {
        signal.addEventListener("abort", () => stopping.abort(), { once: true });
        while (!signal.aborted) {
          await manager.clock.sleep(this.opts.resyncMs ?? 5 * 60_000, signal);
          if (signal.aborted) return;
          for (const q of quotas.list()) controller.loop.enqueue(requestOf(q));
        }
      },
    });
  }

  /** Runs alone, on a Manager of its own, until `signal` aborts. */
  run(signal: AbortSignal): Promise<void> {
    return runOnOwnManager(this.client, signal, (m) => this.register(m), { log: this.opts.log });
  }
}

/** The quotas of `namespace` that count objects of `gr`. */
function tracking(quotas: Informer, namespace: string, gr: GroupResource): Request[] {
  return quotas
    .list()
    .filter((q) => q.metadata.namespace === namespace)
    .filter((q) =>
      resourcesTracked(Object.keys((q as ResourceQuota).spec?.hard ?? {})).some(
        (t) => t.group === gr.group && t.resource === gr.resource,
      ),
    )
    .map(requestOf);
}
