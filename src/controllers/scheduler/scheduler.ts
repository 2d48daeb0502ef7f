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
import type { KubeObject } from "../../api/index.js";
import { rfc3339 } from "../../api/index.js";
import { type Client, EventRecorder, ignoreNotFound } from "../../client/index.js";
import {
  type Cache,
  DONE,
  type Manager,
  objectKey,
  onStop,
  type ReconcileResult,
  type Request,
  type RequestQueue,
  requestKey,
  runOnOwnManager,
  type TypedReconciler,
} from "../../runtime/index.js";
import { schedule } from "./fit.js";
import { type Condition, DEFAULT_SCHEDULER, isTerminal, type Node, type Pod } from "./types.js";

export const UNSCHEDULABLE_RETRY_MS = 30_000;

const POD = { apiVersion: "v1", kind: "Pod" };
const NODE = { apiVersion: "v1", kind: "Node" };

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

export class Scheduler implements TypedReconciler {
  private readonly events: EventRecorder;
  /** Pods bound by this scheduler whose binding the cache has not shown yet: key → node. */
  private readonly assumed = new Map<string, string>();
  private cache: Cache | undefined;

  constructor(
    private readonly client: Client,
    private readonly opts: SchedulerOptions = {},
  ) {
    const log = opts.log ?? (() => {});
    this.events = new EventRecorder(client, {
      component: "default-scheduler",
      onError: (e) => log("scheduler: event", e),
    });
  }

  /** Runs the scheduler on `manager`, reading Pods and Nodes from its shared cache. */
  register(manager: Manager): void {
    this.cache = manager.cache;
    const retryAll = (_o: KubeObject, q: RequestQueue) => this.enqueuePending(q);
    manager
      .controller("scheduler")
      // One worker: each decision sees the ones before it.
      .workers(1)
      .watchesWith(POD, {
        create: (p, q) => this.podChanged(p as Pod, undefined, q),
        update: (old, p, q) => this.podChanged(p as Pod, old as Pod, q),
        delete: (p, q) => this.podGone(p as Pod, q),
      })
      .watchesWith(NODE, {
        create: retryAll,
        update: (_old, o, q) => retryAll(o, q),
        delete: retryAll,
      })
      .complete(this);
    manager.add(onStop(() => this.events.flush()));
  }

  /** Runs the scheduler alone, on a Manager of its own, until `signal` aborts. */
  run(signal: AbortSignal): Promise<void> {
    return runOnOwnManager(this.client, signal, (m) => this.register(m), { log: this.opts.log });
  }

  private podChanged(pod: Pod, old: Pod | undefined, queue: RequestQueue): void {
    const key = objectKey(pod);
    if (pod.spec?.nodeName) this.assumed.delete(key);
    if (isPending(pod)) queue.add(requestOfPod(pod));
    // A bound pod that finishes, or whose labels change, may let others fit.
    if (
      old?.spec?.nodeName &&
      ((isTerminal(pod) && !isTerminal(old)) ||
        JSON.stringify(pod.metadata.labels) !== JSON.stringify(old.metadata.labels))
    )
      this.enqueuePending(queue);
  }

  private podGone(pod: Pod, queue: RequestQueue): void {
    this.assumed.delete(objectKey(pod));
    if (pod.spec?.nodeName) this.enqueuePending(queue);
  }

  private enqueuePending(queue: RequestQueue): void {
    for (const p of this.pods()) if (isPending(p)) queue.add(requestOfPod(p));
  }

  private pods(): Pod[] {
    return (this.cache?.informer(POD).informer.list() ?? []) as Pod[];
  }

  async reconcile(req: Request): Promise<ReconcileResult> {
    const cache = this.cache;
    if (!cache) throw new Error("the scheduler runs only on a Manager");
    const key = requestKey(req);
    const pod = await ignoreNotFound(cache.get<Pod>({ ...POD, ...req }, { noCopy: true }));
    if (!pod || !isPending(pod) || this.assumed.has(key)) return DONE;
    const bound: { pod: Pod; nodeName: string }[] = [];
    for (const p of this.pods()) {
      const nodeName = p.spec?.nodeName || this.assumed.get(objectKey(p));
      if (nodeName) bound.push({ pod: p, nodeName });
    }
    const nodes = (await cache.list<Node>(NODE, { noCopy: true })).items;
    const decision = schedule(pod, { nodes, bound });
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

function requestOfPod(pod: Pod): Request {
  return { namespace: pod.metadata.namespace ?? "", name: pod.metadata.name ?? "" };
}
