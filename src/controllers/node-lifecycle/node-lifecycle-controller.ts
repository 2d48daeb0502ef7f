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
import {
  type BuiltController,
  type Manager,
  onStop,
  type Request,
  type RequestQueue,
  runOnOwnManager,
} from "../../runtime/index.js";
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
  /** The clock (ms since the epoch); default: the Manager's (`ManagerOptions.clock`). */
  now?(): number;
}

const NODE = { apiVersion: "v1", kind: "Node" };
const POD = { apiVersion: "v1", kind: "Pod" };
const LEASE = { apiVersion: "coordination.k8s.io/v1", kind: "Lease" };
const LEASES = { scope: { namespace: NODE_LEASE_NAMESPACE } };

/** The two loops `register` built, for tests that make one look at a key. */
export interface NodeLifecycleLoops {
  /** The node monitor, keyed by node name. */
  nodes: BuiltController;
  /** Pod GC and taint eviction, keyed by pod. */
  pods: BuiltController;
}

export class NodeLifecycleController {
  private readonly nodeEvents: EventRecorder;
  private readonly evictionEvents: EventRecorder;

  constructor(
    private readonly client: Client,
    private readonly opts: NodeLifecycleOptions = {},
  ) {
    const log = opts.log ?? (() => {});
    const recorder = (component: string) =>
      new EventRecorder(client, { component, onError: (e) => log(`${component}: event`, e) });
    this.nodeEvents = recorder("node-controller");
    this.evictionEvents = recorder("taint-eviction-controller");
  }

  /** Runs both loops on `manager`, reading Nodes, node Leases and Pods from its shared cache. */
  register(manager: Manager): NodeLifecycleLoops {
    const { client, opts } = this;
    const now = opts.now ?? (() => manager.clock.now());
    const nodes = manager.cache.informer(NODE).informer;
    const pods = manager.cache.informer(POD).informer;
    const leases = manager.cache.informer(LEASE, LEASES.scope).informer;
    const gracePeriodMs = opts.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS;
    const health = new NodeHealth(gracePeriodMs, now());
    const gc = new PodGc({
      client,
      nodes,
      pods,
      health,
      events: this.evictionEvents,
      quarantineMs: gracePeriodMs,
      now,
    });
    const podsOn = (nodeName: string, q: RequestQueue) => {
      for (const p of pods.list() as PodView[])
        if (p.spec.nodeName === nodeName) q.add(podRequest(p));
    };
    const podBound = (p: KubeObject, q: RequestQueue) => {
      if ((p as PodView).spec.nodeName) q.add(podRequest(p));
    };
    const nodeSeen = (n: KubeObject, q: RequestQueue) => {
      gc.nodeAppeared(n.metadata.name ?? "");
      podsOn(n.metadata.name ?? "", q);
    };
    const podGc = manager
      .controller("pod-garbage-collector")
      .workers(2)
      .watchesWith(POD, {
        create: (p, q) => podBound(p, q),
        update: (_old, p, q) => podBound(p, q),
      })
      .watchesWith(NODE, {
        create: (n, q) => nodeSeen(n, q),
        update: (_old, n, q) => nodeSeen(n, q),
        delete: (n, q) => podsOn(n.metadata.name ?? "", q),
      })
      .complete(gc);
    const gcQueue: RequestQueue = { add: (req) => podGc.loop.enqueue(req) };
    const monitor = new NodeMonitor({
      client,
      nodes,
      leases,
      pods,
      health,
      events: this.nodeEvents,
      onSilent: (name) => podsOn(name, gcQueue),
      now,
    });
    const byName = (o: KubeObject, q: RequestQueue) => q.add({ name: o.metadata.name ?? "" });
    const nodeMonitor = manager
      .controller("node-lifecycle")
      .workers(2)
      .watchesWith(NODE, {
        create: byName,
        update: (_old, n, q) => byName(n, q),
        delete: (n, q) => {
          const name = n.metadata.name ?? "";
          this.nodeEvents.event(
            n,
            "Normal",
            "RemovingNode",
            `Node ${name} event: Removing Node ${name} from Controller`,
          );
          byName(n, q);
        },
      })
      .watchesWith(
        LEASE,
        { create: byName, update: (_old, l, q) => byName(l, q), delete: byName },
        LEASES,
      )
      // A pod newly bound: its node's Ready condition may have to follow.
      .watchesWith(POD, {
        create: (p, q) => nodeOf(p, undefined, q),
        update: (old, p, q) => nodeOf(p, old, q),
      })
      .complete(monitor);
    manager.add(onStop(() => Promise.all([this.nodeEvents.flush(), this.evictionEvents.flush()])));
    return { nodes: nodeMonitor, pods: podGc };
  }

  /** Runs alone, on a Manager of its own, until `signal` aborts. */
  run(signal: AbortSignal): Promise<void> {
    return runOnOwnManager(this.client, signal, (m) => this.register(m), { log: this.opts.log });
  }
}

function nodeOf(pod: KubeObject, old: KubeObject | undefined, q: RequestQueue): void {
  const nodeName = (pod as PodView).spec.nodeName;
  if (nodeName && (old as PodView | undefined)?.spec.nodeName !== nodeName)
    q.add({ name: nodeName });
}

function podRequest(pod: KubeObject): Request {
  return { namespace: pod.metadata.namespace ?? "", name: pod.metadata.name ?? "" };
}
