/**
 * The scheduler: one reconciler per pending Pod key (no `spec.nodeName`, not being
 * deleted, `schedulerName` default) decides with `schedule()` over the Node and
 * Pod caches and binds through the `pods/binding` subresource, as kube-scheduler
 * does. A pod it has bound counts on its node ("assumed") until the cache shows
 * the binding, so back-to-back decisions never overcommit a node. A pod that fits
 * nowhere gets `PodScheduled=False` (reason Unschedulable, kube's message) and a
 * Warning Event, and is looked at again when a Node changes, when a bound pod goes
 * away or finishes, and every `retryMs`.
 */
import { rfc3339 } from "../../api/time.js";
import type { KubeObject } from "../../api/types.js";
import { type Client, EventRecorder } from "../../client/index.js";
import {
  Controller,
  DONE,
  Informer,
  objectKey,
  type Reconciler,
  type Result,
} from "../../runtime/index.js";
import { schedule } from "./fit.js";
import { type Condition, DEFAULT_SCHEDULER, isTerminal, type Node, type Pod } from "./types.js";

export const UNSCHEDULABLE_RETRY_MS = 30_000;

export interface SchedulerOptions {
  log?(msg: string, err?: unknown): void;
  /** How soon an unschedulable pod is looked at again without any change (ms). */
  retryMs?: number;
}

function isPending(pod: Pod): boolean {
  const name = pod.spec?.schedulerName;
  return (
    !pod.spec?.nodeName &&
    !pod.metadata.deletionTimestamp &&
    !isTerminal(pod) &&
    (name === undefined || name === "" || name === DEFAULT_SCHEDULER)
  );
}

export class Scheduler implements Reconciler {
  readonly controller: Controller;
  private readonly pods: Informer;
  private readonly nodes: Informer;
  private readonly events: EventRecorder;
  /** Pods bound by this scheduler whose binding the cache has not shown yet: key → node. */
  private readonly assumed = new Map<string, string>();

  constructor(
    private readonly client: Client,
    private readonly opts: SchedulerOptions = {},
  ) {
    const log = opts.log ?? (() => {});
    this.pods = new Informer(client, {
      apiVersion: "v1",
      kind: "Pod",
      onError: (e) => log("scheduler: pod informer", e),
    });
    this.nodes = new Informer(client, {
      apiVersion: "v1",
      kind: "Node",
      onError: (e) => log("scheduler: node informer", e),
    });
    this.events = new EventRecorder(client, {
      component: "default-scheduler",
      onError: (e) => log("scheduler: event", e),
    });
    // One worker: each decision sees the ones before it.
    this.controller = new Controller(this, {
      name: "scheduler",
      workers: 1,
      onError: (key, err) => log(`scheduler ${key}: reconcile failed`, err),
    });
    this.pods.addHandlers({
      onAdd: (p) => this.podChanged(p as Pod),
      onUpdate: (old, p) => this.podChanged(p as Pod, old as Pod),
      onDelete: (p) => this.podGone(p as Pod),
    });
    const retryAll = () => this.enqueuePending();
    this.nodes.addHandlers({ onAdd: retryAll, onUpdate: retryAll, onDelete: retryAll });
  }

  private podChanged(pod: Pod, old?: Pod): void {
    const key = objectKey(pod);
    if (pod.spec?.nodeName) this.assumed.delete(key);
    if (isPending(pod)) this.controller.enqueue(key);
    // A bound pod that finishes, or whose labels change, may let others fit.
    if (
      old?.spec?.nodeName &&
      ((isTerminal(pod) && !isTerminal(old)) ||
        JSON.stringify(pod.metadata.labels) !== JSON.stringify(old.metadata.labels))
    )
      this.enqueuePending();
  }

  private podGone(pod: Pod): void {
    this.assumed.delete(objectKey(pod));
    if (pod.spec?.nodeName) this.enqueuePending();
  }

  private enqueuePending(): void {
    for (const p of this.pods.list() as Pod[])
      if (isPending(p)) this.controller.enqueue(objectKey(p));
  }

  async run(signal: AbortSignal): Promise<void> {
    const running = [this.pods.run(signal), this.nodes.run(signal)];
    const synced = await Promise.all([
      this.pods.waitForSync(signal),
      this.nodes.waitForSync(signal),
    ]);
    if (synced.every(Boolean)) await this.controller.run(signal);
    await Promise.all(running);
    await this.events.flush();
  }

  async reconcile(_signal: AbortSignal, key: string): Promise<Result> {
    const pod = this.pods.get(key) as Pod | undefined;
    if (!pod || !isPending(pod) || this.assumed.has(key)) return DONE;
    const bound: { pod: Pod; nodeName: string }[] = [];
    for (const p of this.pods.list() as Pod[]) {
      const nodeName = p.spec?.nodeName || this.assumed.get(objectKey(p));
      if (nodeName) bound.push({ pod: p, nodeName });
    }
    const decision = schedule(pod, { nodes: this.nodes.list() as Node[], bound });
    if ("nodeName" in decision) {
      await this.bind(pod, decision.nodeName);
      return DONE;
    }
    await this.markUnschedulable(pod, decision.unschedulable);
    return { requeueAfter: this.opts.retryMs ?? UNSCHEDULABLE_RETRY_MS };
  }

  private async bind(pod: Pod, nodeName: string): Promise<void> {
    const { name, namespace } = pod.metadata;
    const binding = {
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name, namespace, uid: pod.metadata.uid },
      target: { apiVersion: "v1", kind: "Node", name: nodeName },
    };
    const res = await this.client.request(
      "POST",
      `/api/v1/namespaces/${encodeURIComponent(namespace ?? "")}/pods/${encodeURIComponent(name ?? "")}/binding`,
      JSON.stringify(binding),
      { "Content-Type": "application/json" },
    );
    // 409: bound meanwhile, being deleted, or recreated under the same name; 404: gone.
    if (res.status === 409 || res.status === 404) return;
    if (res.status !== 201 && res.status !== 200)
      throw new Error(
        `bind pod ${namespace}/${name} to ${nodeName}: ${res.status} ${res.body.slice(0, 300)}`,
      );
    this.assumed.set(objectKey(pod), nodeName);
    this.events.event(
      pod,
      "Normal",
      "Scheduled",
      `Successfully assigned ${namespace}/${name} to ${nodeName}`,
    );
  }

  private async markUnschedulable(pod: Pod, message: string): Promise<void> {
    const conditions = pod.status?.conditions ?? [];
    const old = conditions.find((c) => c.type === "PodScheduled");
    if (old?.status === "False" && old.reason === "Unschedulable" && old.message === message)
      return;
    const next: Condition = {
      type: "PodScheduled",
      status: "False",
      reason: "Unschedulable",
      message,
      lastProbeTime: null,
      lastTransitionTime:
        old?.status === "False" && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(),
    };
    const patch = {
      metadata: { resourceVersion: pod.metadata.resourceVersion },
      status: { conditions: [...conditions.filter((c) => c.type !== "PodScheduled"), next] },
    };
    const { name, namespace } = pod.metadata;
    await this.client.patchStatus(
      { apiVersion: "v1", kind: "Pod", name: name ?? "", namespace },
      patch,
      { type: "merge" },
    );
    this.events.event(pod as KubeObject, "Warning", "FailedScheduling", message);
  }
}
