/**
 * The endpoints controller: one reconciler per Service key keeps the Service's
 * v1 Endpoints (same name) and its discovery.k8s.io/v1 EndpointSlices (labelled
 * `kubernetes.io/service-name`, managed by `endpointslice-controller.k8s.io`)
 * equal to `desiredEndpoints`. Both carry an owner reference to the Service, so
 * the garbage collector removes them too; when the Service is gone this
 * reconciler deletes what it owned (Endpoints a user wrote for a selector-less
 * Service are never touched). Reads come from informers; a write re-reads the
 * object first, and a conflict with another writer is retried by the runtime.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject, OwnerReference } from "../../api/index.js";
import { hasCode, labelSelectorFromObject } from "../../api/index.js";
import { type Client, getOptional, refOf } from "../../client/index.js";
import {
  DONE,
  type Informer,
  type Request,
  type ReconcileResult as Result,
  requestKey,
  type TypedReconciler,
} from "../../runtime/index.js";
import { type DesiredSlice, desiredEndpoints } from "./endpoints-build.js";
import {
  type EndpointSlice,
  type Endpoints,
  HEADLESS_LABEL,
  isHeadless,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  type PodView,
  SERVICE_NAME_LABEL,
  type Service,
} from "./types.js";

const SLICE = { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" };
const FIELD_MANAGER = "endpoint-controller";

export interface EndpointsCaches {
  services: Informer;
  pods: Informer;
  endpoints: Informer;
  slices: Informer;
}

/** The pods of the Service's namespace its selector matches. */
export function selectedPods(svc: Service, pods: KubeObject[]): PodView[] {
  const selector = labelSelectorFromObject({ matchLabels: svc.spec?.selector ?? {} });
  return pods.filter(
    (p) =>
      p.metadata.namespace === svc.metadata.namespace &&
      selector.matches((k) => p.metadata.labels?.[k]),
  ) as PodView[];
}

function ownerRef(svc: Service): OwnerReference {
  return {
    apiVersion: "v1",
    kind: "Service",
    name: svc.metadata.name ?? "",
    uid: svc.metadata.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

function ownedBy(obj: KubeObject, kind: string): boolean {
  return (obj.metadata.ownerReferences ?? []).some((o) => o.kind === kind && o.controller);
}

export class EndpointsReconciler implements TypedReconciler {
  constructor(
    private readonly client: Client,
    private readonly caches: EndpointsCaches,
  ) {}

  async reconcile(req: Request): Promise<Result> {
    const key = requestKey(req);
    const [namespace, name] = key.split("/") as [string, string];
    const svc = this.caches.services.get(key) as Service | undefined;
    const current = this.caches.slices
      .list()
      .filter(
        (s) =>
          s.metadata.namespace === namespace &&
          s.metadata.labels?.[SERVICE_NAME_LABEL] === name &&
          s.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY,
      ) as EndpointSlice[];
    const selector = svc?.spec?.selector;
    if (!svc || !selector || Object.keys(selector).length === 0) {
      // Gone, or selector-less (its endpoints are someone else's): remove what we made.
      for (const s of current) await this.remove(SLICE.apiVersion, SLICE.kind, s);
      const ep = this.caches.endpoints.get(key);
      if (!svc && ep && ownedBy(ep, "Service")) await this.remove("v1", "Endpoints", ep);
      return DONE;
    }
    const desired = desiredEndpoints(svc, selectedPods(svc, this.caches.pods.list()));
    const labels = {
      ...svc.metadata.labels,
      ...(isHeadless(svc) ? { [HEADLESS_LABEL]: "" } : {}),
    };
    await this.writeEndpoints(svc, labels, desired.subsets);
    for (const d of desired.slices) await this.writeSlice(svc, labels, d, current);
    const keep = new Set(desired.slices.map((d) => d.name));
    for (const s of current)
      if (!keep.has(s.metadata.name ?? "")) await this.remove(SLICE.apiVersion, SLICE.kind, s);
    return DONE;
  }

  private async writeEndpoints(
    svc: Service,
    labels: Record<string, string>,
    subsets: Endpoints["subsets"],
  ): Promise<void> {
    const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
    const next: Endpoints = {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: {
        name: svc.metadata.name,
        namespace: svc.metadata.namespace,
        labels,
        ownerReferences: [ownerRef(svc)],
      },
      subsets: subsets ?? [],
    };
    await this.write(next, this.caches.endpoints.get(key));
  }

  private async writeSlice(
    svc: Service,
    labels: Record<string, string>,
    d: DesiredSlice,
    current: EndpointSlice[],
  ): Promise<void> {
    const next: EndpointSlice = {
      ...SLICE,
      metadata: {
        name: d.name,
        namespace: svc.metadata.namespace,
        labels: {
          ...labels,
          [SERVICE_NAME_LABEL]: svc.metadata.name ?? "",
          [MANAGED_BY_LABEL]: MANAGED_BY,
        },
        ownerReferences: [ownerRef(svc)],
      },
      addressType: "IPv4",
      endpoints: d.endpoints,
      ports: d.ports,
    };
    await this.write(
      next,
      current.find((s) => s.metadata.name === d.name),
    );
  }

  /**
   * Makes the object equal to `next`. The cache says whether a write is due; the
   * write itself starts from a fresh read, because the cache may not have caught up
   * with this controller's own last write yet.
   */
  private async write(next: KubeObject, cached: KubeObject | undefined): Promise<void> {
    if (cached && isDeepStrictEqual(sameShape(cached), sameShape(next))) return;
    const fresh = await getOptional(this.client, refOf(next));
    if (!fresh) {
      await this.client.create(next, { fieldManager: FIELD_MANAGER });
      return;
    }
    if (isDeepStrictEqual(sameShape(fresh), sameShape(next))) return;
    await this.client.update(
      { ...next, metadata: { ...fresh.metadata, ...next.metadata } },
      { fieldManager: FIELD_MANAGER },
    );
  }

  private async remove(apiVersion: string, kind: string, obj: KubeObject): Promise<void> {
    await this.client
      .delete(
        { apiVersion, kind, name: obj.metadata.name ?? "", namespace: obj.metadata.namespace },
        {
          preconditions: { uid: obj.metadata.uid ?? "" },
        },
      )
      .catch((e: unknown) => {
        if (!hasCode(e, 404) && !hasCode(e, 409)) throw e;
      });
  }
}

/** What the controller owns of an object: labels, owners and content, not server fields. */
function sameShape(o: KubeObject): unknown {
  const { metadata, apiVersion: _a, kind: _k, ...rest } = o;
  return { labels: metadata.labels ?? {}, owners: metadata.ownerReferences ?? [], ...rest };
}
