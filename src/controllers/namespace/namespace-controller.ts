/**
 * The namespace controller: empties a terminating namespace and then removes its
 * `kubernetes` finalizer so the apiserver can remove it. Content goes in the order
 * of KEP-5080 (OrderedNamespaceDeletion, default since Kubernetes 1.33): pods
 * first, and nothing else is touched while any pod remains; then every other
 * namespaced resource. While content remains it requeues, and the namespace's
 * conditions name the resources and finalizers that block.
 */

import type { KubeObject } from "../../api/index.js";
import { rfc3339 } from "../../api/index.js";
import {
  type Client,
  errorText,
  getOptional,
  ignoreNotFound,
  isNotFound,
} from "../../client/index.js";
import {
  type DiscoveredResource,
  DONE,
  discoverResources,
  type ReconcileResult,
  type Request,
  type TypedReconciler,
} from "../../runtime/index.js";
import {
  deletionConditions,
  mergeConditions,
  type NamespaceCondition,
  sameConditions,
} from "./conditions.js";
import {
  countRemaining,
  emptyRemaining,
  groupResource,
  isEmpty,
  type Remaining,
} from "./content.js";

export const KUBERNETES_FINALIZER = "kubernetes";
/** How soon to look again while content remains. */
export const CONTENT_REQUEUE_MS = 1000;

function isPods(r: DiscoveredResource): boolean {
  return r.group === "" && r.plural === "pods";
}

export class NamespaceReconciler implements TypedReconciler {
  constructor(private readonly client: Client) {}

  async reconcile({ name }: Request): Promise<ReconcileResult> {
    const ns = await getOptional(this.client, { apiVersion: "v1", kind: "Namespace", name });
    if (!ns?.metadata.deletionTimestamp) return DONE;
    const finalizers = (
      (ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []
    ).slice();
    if (!finalizers.includes(KUBERNETES_FINALIZER)) return DONE;

    let resources: DiscoveredResource[];
    try {
      resources = (await discoverResources(this.client)).filter(
        (r) => r.namespaced && r.verbs.includes("list") && r.verbs.includes("delete"),
      );
    } catch (e) {
      await this.setConditions(ns, { discoveryError: String(e), remaining: emptyRemaining() });
      throw e;
    }
    const remaining = emptyRemaining();
    const errors: string[] = [];
    const pods = resources.filter(isPods);
    await this.deleteContent(name, pods, remaining, errors);
    if (isEmpty(remaining))
      await this.deleteContent(
        name,
        resources.filter((r) => !isPods(r)),
        remaining,
        errors,
      );

    await this.setConditions(ns, {
      ...(errors.length ? { contentError: errors.join("; ") } : {}),
      remaining,
    });
    if (!isEmpty(remaining) || errors.length > 0) return { requeueAfter: CONTENT_REQUEUE_MS };
    await this.finalize(
      ns,
      finalizers.filter((f) => f !== KUBERNETES_FINALIZER),
    );
    return DONE;
  }

  /** Deletes every object of these resources in the namespace and counts what is left. */
  private async deleteContent(
    namespace: string,
    resources: DiscoveredResource[],
    remaining: Remaining,
    errors: string[],
  ): Promise<void> {
    for (const r of resources) {
      try {
        let items = (
          await this.client.list({ apiVersion: r.apiVersion, kind: r.kind }, { namespace })
        ).items;
        const live = items.filter((o) => !o.metadata.deletionTimestamp);
        if (live.length > 0) {
          if (r.verbs.includes("deletecollection")) {
            await this.client.deleteCollection(
              { apiVersion: r.apiVersion, kind: r.kind },
              {
                namespace,
                propagationPolicy: "Background",
              },
            );
          } else {
            for (const o of live) await this.deleteOne(r, o);
          }
          items = (
            await this.client.list({ apiVersion: r.apiVersion, kind: r.kind }, { namespace })
          ).items;
        }
        countRemaining(remaining, groupResource(r.group, r.plural), items);
      } catch (e) {
        if (isNotFound(e)) continue; // the kind went away meanwhile
        errors.push(`${groupResource(r.group, r.plural)}: ${errorText(e)}`);
      }
    }
  }

  private async deleteOne(r: DiscoveredResource, o: KubeObject): Promise<void> {
    const ref = {
      apiVersion: r.apiVersion,
      kind: r.kind,
      name: o.metadata.name!,
      namespace: o.metadata.namespace,
    };
    await ignoreNotFound(this.client.delete(ref, { propagationPolicy: "Background" }));
  }

  private async setConditions(
    ns: KubeObject,
    state: Parameters<typeof deletionConditions>[0],
  ): Promise<void> {
    const status = (ns.status ?? {}) as { phase?: string; conditions?: NamespaceCondition[] };
    const old = status.conditions ?? [];
    const next = mergeConditions(old, deletionConditions(state), rfc3339());
    if (sameConditions(old, next)) return;
    await this.client.updateStatus({ ...ns, status: { ...status, conditions: next } });
  }

  private async finalize(ns: KubeObject, finalizers: string[]): Promise<void> {
    const fresh = await this.client.get({
      apiVersion: "v1",
      kind: "Namespace",
      name: ns.metadata.name!,
    });
    const body = JSON.stringify({ ...fresh, spec: { ...(fresh.spec as object), finalizers } });
    const res = await this.client.request(
      "PUT",
      `/api/v1/namespaces/${encodeURIComponent(ns.metadata.name!)}/finalize`,
      body,
      {
        "Content-Type": "application/json",
      },
    );
    if (res.status === 404) return;
    if (res.status !== 200)
      throw new Error(
        `finalize namespace ${ns.metadata.name}: ${res.status} ${res.body.slice(0, 300)}`,
      );
  }
}
