/**
 * Runs the endpoints reconciler: informers on Services, Pods, Endpoints and
 * managed EndpointSlices, each change turned into the keys of the Services it
 * concerns (a pod's change concerns every Service of its namespace whose selector
 * matched it before or after). Workers start once every cache has synced, so a
 * reconcile never mistakes a not-yet-listed Service for a deleted one.
 */

import type { KubeObject } from "../../api/index.js";
import { labelSelectorFromObject } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import {
  type Informer,
  type Manager,
  type RequestQueue,
  requestOf,
  runOnOwnManager,
} from "../../runtime/index.js";
import { EndpointsReconciler } from "./endpoints-controller.js";
import { MANAGED_BY, MANAGED_BY_LABEL, SERVICE_NAME_LABEL, type Service } from "./types.js";

export interface EndpointsControllerOptions {
  log?(msg: string, err?: unknown): void;
  workers?: number;
}

const SERVICE = { apiVersion: "v1", kind: "Service" };
const POD = { apiVersion: "v1", kind: "Pod" };
const ENDPOINTS = { apiVersion: "v1", kind: "Endpoints" };
const SLICE = { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" };
const MANAGED_SLICES = { scope: { labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY}` } };

export class EndpointsController {
  constructor(
    private readonly client: Client,
    private readonly opts: EndpointsControllerOptions = {},
  ) {}

  /** Runs the controller on `manager`, reading from its shared cache. */
  register(manager: Manager): void {
    const { cache } = manager;
    const informer = (type: typeof SERVICE, scope = {}) => cache.informer(type, scope).informer;
    const services = informer(SERVICE);
    const reconciler = new EndpointsReconciler(this.client, {
      services,
      pods: informer(POD),
      endpoints: informer(ENDPOINTS),
      slices: informer(SLICE, MANAGED_SLICES.scope),
    });
    const sliceOwner = (o: KubeObject) => {
      const svc = o.metadata.labels?.[SERVICE_NAME_LABEL];
      return svc ? [{ namespace: o.metadata.namespace ?? "", name: svc }] : [];
    };
    manager
      .controller("endpoints")
      .workers(this.opts.workers ?? 2)
      .for(SERVICE)
      .watches(ENDPOINTS, (o) => [requestOf(o)])
      .watches(SLICE, sliceOwner, MANAGED_SLICES)
      .watchesWith(POD, {
        create: (p, q) => podChanged(services, p, undefined, q),
        update: (old, p, q) => podChanged(services, p, old, q),
        delete: (p, q) => podChanged(services, p, undefined, q),
      })
      .complete(reconciler);
  }

  /** Runs alone, on a Manager of its own, until `signal` aborts. */
  run(signal: AbortSignal): Promise<void> {
    return runOnOwnManager(this.client, signal, (m) => this.register(m), { log: this.opts.log });
  }
}

/** A pod's change concerns every Service of its namespace that selected it before or after. */
function podChanged(
  services: Informer,
  pod: KubeObject,
  old: KubeObject | undefined,
  queue: RequestQueue,
): void {
  for (const svc of services.list() as Service[]) {
    if (svc.metadata.namespace !== pod.metadata.namespace) continue;
    const selector = svc.spec?.selector;
    if (!selector || Object.keys(selector).length === 0) continue;
    const sel = labelSelectorFromObject({ matchLabels: selector });
    const matches = (o: KubeObject) => sel.matches((k) => o.metadata.labels?.[k]);
    if (matches(pod) || (old && matches(old))) queue.add(requestOf(svc));
  }
}
