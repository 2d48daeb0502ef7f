/**
 * The node lifecycle controller: informers on Nodes, node Leases and Pods
 * feeding two reconcilers that share one view of node health — the node
 * monitor (keyed by node name) and pod GC with taint eviction (keyed by pod).
 * A node change looks at the node and at every pod bound to it; a Lease change
 * at its node; a pod change at the pod and, when it is newly bound, at its
 * node (whose Ready condition it may have to follow). Work starts once all
 * three caches have synced, so a node missing from the cache is really missing
 * from the API as of the list.
 */
import type { KubeObject } from "../../api/index.js";
import { type Client, EventRecorder } from "../../client/index.js";
import { Controller, Informer, objectKey } from "../../runtime/index.js";
import { NodeHealth } from "./node-health.js";
import { NodeMonitor } from "./node-monitor.js";
import { PodGc } from "./pod-gc.js";
import { DEFAULT_GRACE_PERIOD_MS, NODE_LEASE_NAMESPACE, type PodView } from "./types.js";

export interface NodeLifecycleOptions {
  /**
   * kube's node-monitor-grace-period: a node whose agent gave no sign of life
   * for this long is Unknown (default 40 s). Also the pod GC's quarantine.
   */
  gracePeriodMs?: number;
  log?(msg: string, err?: unknown): void;
  /** The clock (ms since the epoch); tests pass their own. */
  now?(): number;
}

export class NodeLifecycleController {
  private readonly nodes: Informer;
  private readonly leases: Informer;
  private readonly pods: Informer;
  private readonly nodeEvents: EventRecorder;
  private readonly evictionEvents: EventRecorder;
  private readonly monitor: Controller;
  private readonly podGc: Controller;

  constructor(client: Client, opts: NodeLifecycleOptions = {}) {
    const log = opts.log ?? (() => {});
    const now = opts.now ?? Date.now;
    const informer = (apiVersion: string, kind: string, namespace?: string) =>
      new Informer(client, {
        apiVersion,
        kind,
        ...(namespace ? { namespace } : {}),
        onError: (e) => log(`node lifecycle: ${kind} informer`, e),
      });
    this.nodes = informer("v1", "Node");
    this.leases = informer("coordination.k8s.io/v1", "Lease", NODE_LEASE_NAMESPACE);
    this.pods = informer("v1", "Pod");
    const recorder = (component: string) =>
      new EventRecorder(client, { component, onError: (e) => log(`${component}: event`, e) });
    this.nodeEvents = recorder("node-controller");
    this.evictionEvents = recorder("taint-eviction-controller");
    const gracePeriodMs = opts.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS;
    const health = new NodeHealth(gracePeriodMs, now());
    const gc = new PodGc({
      client,
      nodes: this.nodes,
      pods: this.pods,
      health,
      events: this.evictionEvents,
      quarantineMs: gracePeriodMs,
      now,
    });
    this.podGc = new Controller(gc, {
      name: "pod-garbage-collector",
      workers: 2,
      onError: (key, err) => log(`pod GC ${key}: reconcile failed`, err),
    });
    const monitor = new NodeMonitor({
      client,
      nodes: this.nodes,
      leases: this.leases,
      pods: this.pods,
      health,
      events: this.nodeEvents,
      onSilent: (name) => this.enqueuePodsOn(name),
      now,
    });
    this.monitor = new Controller(monitor, {
      name: "node-lifecycle",
      workers: 2,
      onError: (key, err) => log(`node lifecycle ${key}: reconcile failed`, err),
    });

    const nodeChanged = (node: KubeObject) => {
      const name = node.metadata.name ?? "";
      gc.nodeAppeared(name);
      this.monitor.enqueue(name);
      this.enqueuePodsOn(name);
    };
    this.nodes.addHandlers({
      onAdd: nodeChanged,
      onUpdate: (_old, node) => nodeChanged(node),
      onDelete: (node) => {
        const name = node.metadata.name ?? "";
        this.nodeEvents.event(
          node,
          "Normal",
          "RemovingNode",
          `Node ${name} event: Removing Node ${name} from Controller`,
        );
        this.monitor.enqueue(name);
        this.enqueuePodsOn(name);
      },
    });
    const leaseChanged = (lease: KubeObject) => this.monitor.enqueue(lease.metadata.name ?? "");
    this.leases.addHandlers({
      onAdd: leaseChanged,
      onUpdate: (_old, lease) => leaseChanged(lease),
      onDelete: leaseChanged,
    });
    const podChanged = (pod: PodView, old?: PodView) => {
      const nodeName = pod.spec.nodeName;
      if (!nodeName) return;
      this.podGc.enqueue(objectKey(pod));
      if (old?.spec.nodeName !== nodeName) this.monitor.enqueue(nodeName);
    };
    this.pods.addHandlers({
      onAdd: (p) => podChanged(p as PodView),
      onUpdate: (old, p) => podChanged(p as PodView, old as PodView),
    });
  }

  private enqueuePodsOn(nodeName: string): void {
    for (const p of this.pods.list() as PodView[])
      if (p.spec.nodeName === nodeName) this.podGc.enqueue(objectKey(p));
  }

  /** Runs until `signal` aborts; resolves once every loop has stopped. */
  async run(signal: AbortSignal): Promise<void> {
    const caches = [this.nodes, this.leases, this.pods];
    const running = caches.map((c) => c.run(signal));
    const synced = await Promise.all(caches.map((c) => c.waitForSync(signal)));
    if (synced.every(Boolean))
      await Promise.all([this.monitor.run(signal), this.podGc.run(signal)]);
    await Promise.all(running);
    await Promise.all([this.nodeEvents.flush(), this.evictionEvents.flush()]);
  }
}
