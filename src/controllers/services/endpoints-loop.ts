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
import { Controller, Informer, objectKey } from "../../runtime/index.js";
import { EndpointsReconciler } from "./endpoints-controller.js";
import { MANAGED_BY, MANAGED_BY_LABEL, SERVICE_NAME_LABEL, type Service } from "./types.js";

export interface EndpointsControllerOptions {
  log?(msg: string, err?: unknown): void;
  workers?: number;
}

export class EndpointsController {
  readonly controller: Controller;
  private readonly services: Informer;
  private readonly pods: Informer;
  private readonly endpoints: Informer;
  private readonly slices: Informer;

  constructor(client: Client, opts: EndpointsControllerOptions = {}) {
    const log = opts.log ?? (() => {});
    const informer = (apiVersion: string, kind: string, labelSelector?: string) =>
      new Informer(client, {
        apiVersion,
        kind,
        ...(labelSelector ? { labelSelector } : {}),
        onError: (e) => log(`endpoints controller: ${kind} informer`, e),
      });
    this.services = informer("v1", "Service");
    this.pods = informer("v1", "Pod");
    this.endpoints = informer("v1", "Endpoints");
    this.slices = informer(
      "discovery.k8s.io/v1",
      "EndpointSlice",
      `${MANAGED_BY_LABEL}=${MANAGED_BY}`,
    );
    const reconciler = new EndpointsReconciler(client, {
      services: this.services,
      pods: this.pods,
      endpoints: this.endpoints,
      slices: this.slices,
    });
    this.controller = new Controller(reconciler, {
      name: "endpoints",
      workers: opts.workers ?? 2,
      onError: (key, err) => log(`endpoints ${key}: reconcile failed`, err),
    });
    const enqueue = (o: KubeObject) => this.controller.enqueue(objectKey(o));
    this.services.addHandlers({
      onAdd: enqueue,
      onUpdate: (_o, n) => enqueue(n),
      onDelete: enqueue,
    });
    this.endpoints.addHandlers({
      onAdd: enqueue,
      onUpdate: (_o, n) => enqueue(n),
      onDelete: enqueue,
    });
    const sliceOwner = (o: KubeObject) => {
      const svc = o.metadata.labels?.[SERVICE_NAME_LABEL];
      if (svc) this.controller.enqueue(`${o.metadata.namespace}/${svc}`);
    };
    this.slices.addHandlers({
      onAdd: sliceOwner,
      onUpdate: (_o, n) => sliceOwner(n),
      onDelete: sliceOwner,
    });
    this.pods.addHandlers({
      onAdd: (p) => this.podChanged(p),
      onUpdate: (old, p) => this.podChanged(p, old),
      onDelete: (p) => this.podChanged(p),
    });
  }

  private podChanged(pod: KubeObject, old?: KubeObject): void {
    for (const svc of this.services.list() as Service[]) {
      if (svc.metadata.namespace !== pod.metadata.namespace) continue;
      const selector = svc.spec?.selector;
      if (!selector || Object.keys(selector).length === 0) continue;
      const sel = labelSelectorFromObject({ matchLabels: selector });
      const matches = (o: KubeObject) => sel.matches((k) => o.metadata.labels?.[k]);
      if (matches(pod) || (old && matches(old))) this.controller.enqueue(objectKey(svc));
    }
  }

  /** Runs until `signal` aborts; resolves once informers and workers have stopped. */
  async run(signal: AbortSignal): Promise<void> {
    const informers = [this.services, this.pods, this.endpoints, this.slices];
    const running = informers.map((i) => i.run(signal));
    const synced = await Promise.all(informers.map((i) => i.waitForSync(signal)));
    if (synced.every(Boolean)) await this.controller.run(signal);
    await Promise.all(running);
  }
}
