/**
 * Runs the ResourceQuota reconciler: an informer on every ResourceQuota enqueues
 * a quota when it appears or its spec changes (not on status writes, which are
 * this controller's and admission's own); the counted kinds enqueue the quotas
 * of a namespace when an object there goes away or costs less; and every quota
 * is measured again each resync period (kube's `--resource-quota-sync-period`,
 * 5 minutes), which also releases usage charged for writes that then failed.
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
import { Controller, delay, Informer, objectKey } from "../../runtime/index.js";
import { CountedKinds } from "./counted-kinds.js";
import { QuotaReconciler } from "./quota-reconciler.js";

export interface QuotaControllerOptions {
  log?(msg: string, err?: unknown): void;
  /** How often every quota is measured again, ms (default 5 minutes). */
  resyncMs?: number;
}

/** The quota's spec changed, or its enforced limits do not match it yet. */
function needsSync(old: KubeObject, obj: KubeObject): boolean {
  const q = obj as ResourceQuota;
  return (
    !isDeepStrictEqual((old as ResourceQuota).spec, q.spec) ||
    !listsEqual(q.status?.hard ?? {}, q.spec?.hard ?? {})
  );
}

export class QuotaController {
  private readonly quotas: Informer;

  constructor(
    private readonly client: Client,
    private readonly opts: QuotaControllerOptions = {},
  ) {
    this.quotas = new Informer(client, {
      apiVersion: "v1",
      kind: "ResourceQuota",
      onError: (e) => this.log("quota controller: ResourceQuota informer", e),
    });
  }

  private log(msg: string, err?: unknown): void {
    this.opts.log?.(msg, err);
  }

  /** The quotas of `namespace` that count objects of `gr`. */
  private tracking(namespace: string, gr: GroupResource): string[] {
    return this.quotas
      .list()
      .filter((q) => q.metadata.namespace === namespace)
      .filter((q) =>
        resourcesTracked(Object.keys((q as ResourceQuota).spec?.hard ?? {})).some(
          (t) => t.group === gr.group && t.resource === gr.resource,
        ),
      )
      .map(objectKey);
  }

  /** Runs until `signal` aborts; resolves once informers and workers have stopped. */
  async run(signal: AbortSignal): Promise<void> {
    const kinds = new CountedKinds(
      this.client,
      signal,
      (namespace, gr) => {
        for (const key of this.tracking(namespace, gr)) controller.enqueue(key);
      },
      (e) => this.log("quota controller: counted kind informer", e),
    );
    const controller = new Controller(new QuotaReconciler(this.client, kinds), {
      name: "resourcequota",
      workers: 2,
      onError: (key, err) => this.log(`resourcequota ${key}: reconcile failed`, err),
    });
    const enqueue = (o: KubeObject) => controller.enqueue(objectKey(o));
    this.quotas.addHandlers({
      onAdd: enqueue,
      onUpdate: (old, o) => needsSync(old, o) && enqueue(o),
    });
    const informing = this.quotas.run(signal);
    const resync = async () => {
      while (!signal.aborted) {
        await delay(this.opts.resyncMs ?? 5 * 60_000, signal);
        for (const q of this.quotas.list()) enqueue(q);
      }
    };
    if (await this.quotas.waitForSync(signal))
      await Promise.all([controller.run(signal), resync()]);
    await Promise.all([informing, kinds.stopped()]);
  }
}
