/**
 * The node monitor, one reconciler per Node name (kube's node lifecycle
 * controller without zones or rate limits). Each pass takes in the node and its
 * Lease (`kube-node-lease/<node>`) as signs of life. A node silent for the
 * grace period gets its Ready, MemoryPressure, DiskPressure and PIDPressure
 * conditions set to Unknown (a Normal `NodeNotReady` Event on the node when it
 * was Ready), and its Ready pods marked not Ready (a Warning `NodeNotReady`
 * Event on each), so Services stop sending them traffic. Then, on every node,
 * the controller taints follow the Ready condition (see `taints.ts`): the
 * unreachable taints come with Unknown and go when the agent posts Ready=True
 * again. A node not yet silent is looked at again when it would become so.
 */
import { rfc3339 } from "../../api/index.js";
import type { Client, EventRecorder } from "../../client/index.js";
import {
  DONE,
  type Informer,
  type Request,
  type ReconcileResult as Result,
  requestKey,
  type TypedReconciler,
} from "../../runtime/index.js";
import { type NodeHealth, silentConditions } from "./node-health.js";
import { patchPodStatus } from "./pod-status.js";
import { desiredTaints } from "./taints.js";
import {
  type Lease,
  NODE_LEASE_NAMESPACE,
  type NodeView,
  type PodView,
  readyCondition,
} from "./types.js";

export interface MonitorDeps {
  client: Client;
  nodes: Informer;
  leases: Informer;
  pods: Informer;
  health: NodeHealth;
  events: EventRecorder;
  /** Told each time a pass finds the node silent (its terminating pods may go now). */
  onSilent(nodeName: string): void;
  now(): number;
}

export class NodeMonitor implements TypedReconciler {
  constructor(private readonly d: MonitorDeps) {}

  async reconcile(req: Request): Promise<Result> {
    const name = requestKey(req);
    const d = this.d;
    const node = d.nodes.get(name) as NodeView | undefined;
    if (!node) {
      d.health.forget(name);
      return DONE;
    }
    const now = d.now();
    const lease = d.leases.get(`${NODE_LEASE_NAMESPACE}/${name}`) as Lease | undefined;
    const { probeMs, first } = d.health.observe(node, lease, now);
    if (first)
      d.events.event(
        node,
        "Normal",
        "RegisteredNode",
        `Node ${name} event: Registered Node ${name} in Controller`,
      );
    const left = probeMs + d.health.gracePeriodMs - now;
    if (left <= 0) {
      const conditions = silentConditions(node, rfc3339(now));
      if (conditions) {
        // The informer brings the update back for the next pass.
        await d.client.updateStatus({ ...node, status: { ...node.status, conditions } });
        if (readyCondition(node)?.status === "True")
          d.events.event(
            node,
            "Normal",
            "NodeNotReady",
            `Node ${name} status is now: NodeNotReady`,
          );
        return DONE;
      }
      await this.markPodsNotReady(name, now);
      d.onSilent(name);
    }
    const taints = desiredTaints(node, rfc3339(now));
    if (taints)
      await d.client.patch(
        { apiVersion: "v1", kind: "Node", name },
        { metadata: { resourceVersion: node.metadata.resourceVersion }, spec: { taints } },
        { type: "merge" },
      );
    return left > 0 ? { requeueAfter: left } : DONE;
  }

  /** kube's MarkPodsNotReady: the Ready condition of the node's pods goes False. */
  private async markPodsNotReady(nodeName: string, now: number): Promise<void> {
    for (const pod of this.d.pods.list() as PodView[]) {
      if (pod.spec.nodeName !== nodeName) continue;
      const conditions = pod.status?.conditions ?? [];
      const ready = conditions.find((c) => c.type === "Ready");
      if (ready?.status !== "True") continue;
      const next = conditions.map((c) =>
        c === ready ? { ...c, status: "False" as const, lastTransitionTime: rfc3339(now) } : c,
      );
      if (!(await patchPodStatus(this.d.client, pod, { conditions: next }))) continue;
      this.d.events.event(pod, "Warning", "NodeNotReady", "Node is not ready");
    }
  }
}
