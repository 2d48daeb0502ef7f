/**
 * The DaemonSet controller (kube's pkg/controller/daemon): reads the set, the
 * nodes, its pods (controlled by its uid) and its ControllerRevisions fresh from
 * the API, makes sure the update revision exists, then either fixes placement
 * (`manage`: a pod for each node that should run one, none where they may not
 * stay) or, when placement is right, takes one step of the rolling update;
 * writes the status; truncates the revision history. Pods are created with
 * generateName; reading fresh state each pass (one pass per set at a time)
 * is what keeps a crash or a retry from making a second pod for a node.
 */
import { isDeepStrictEqual } from "node:util";
import type { DaemonSet, DaemonSetStatus, Node, Pod } from "../../api/index.js";
import {
  type Client,
  type EventRecorder,
  errorText,
  getOptional,
  ignoreNotFound,
  refOf,
} from "../../client/index.js";
import { DONE, type Request, type Result, type TypedReconciler } from "../../runtime/index.js";
import {
  ensureUpdateRevision,
  listRevisions,
  templateOf,
  truncateHistory,
} from "../history/index.js";
import { controllerRef, selectorString } from "../jobs/job-pods.js";
import { manage, type NodeState, type Plan, rollingUpdate, sortPods } from "./daemon-plan.js";
import {
  hashOf,
  isAvailable,
  isReady,
  newDaemonPod,
  placement,
  targetNode,
} from "./daemon-pods.js";

export class DaemonSetReconciler implements TypedReconciler {
  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
    private readonly now: () => number = Date.now,
  ) {}

  async reconcile(req: Request): Promise<Result> {
    const ds = await getOptional<DaemonSet>(this.client, {
      apiVersion: "apps/v1",
      kind: "DaemonSet",
      name: req.name,
      namespace: req.namespace ?? "",
    });
    if (!ds || ds.metadata.deletionTimestamp) return DONE;
    const [nodes, pods, revisions] = await Promise.all([
      this.client.list<Node>({ apiVersion: "v1", kind: "Node" }),
      this.podsOf(ds),
      listRevisions(this.client, ds),
    ]);
    const { revision: update, collisionCount } = await ensureUpdateRevision(
      this.client,
      ds,
      revisions,
    );
    const hash = update.metadata.labels?.["controller-revision-hash"] ?? "";
    const byNode = new Map<string, Pod[]>();
    for (const pod of pods.filter((p) => !p.metadata.deletionTimestamp)) {
      const node = targetNode(pod) ?? "";
      byNode.set(node, [...(byNode.get(node) ?? []), pod]);
    }
    const states: NodeState[] = nodes.items.map((n) => ({
      name: n.metadata.name!,
      placement: placement(ds, n),
      pods: sortPods(byNode.get(n.metadata.name!) ?? []),
    }));
    const known = new Set(states.map((s) => s.name));
    const now = this.now();
    const rolling = (ds.spec.updateStrategy?.type ?? "RollingUpdate") === "RollingUpdate";
    const surging = rolling && (ds.spec.updateStrategy?.rollingUpdate?.maxSurge ?? 0) !== 0;
    let plan = manage(states, hash, surging);
    // Unscheduled pods pinned to a node that is gone (getUnscheduledPodsWithoutNode).
    for (const [node, list] of byNode)
      if (!known.has(node)) plan.delete.push(...list.filter((p) => !p.spec.nodeName));
    if (plan.create.length === 0 && plan.delete.length === 0 && rolling)
      plan = rollingUpdate(ds, states, hash, now);
    await this.execute(ds, plan, templateOf(update), hash);
    const status = computeStatus(ds, states, hash, collisionCount, now);
    if (!isDeepStrictEqual(status, ds.status ?? {}))
      await this.client.updateStatus({ ...ds, status });
    const live = new Set<string>([update.metadata.name!]);
    for (const r of revisions)
      if (pods.some((p) => hashOf(p) === r.metadata.labels?.["controller-revision-hash"]))
        live.add(r.metadata.name!);
    await truncateHistory(this.client, ds, revisions, live);
    return DONE;
  }

  private async podsOf(ds: DaemonSet): Promise<Pod[]> {
    const list = await this.client.list<Pod>(
      { apiVersion: "v1", kind: "Pod" },
      { namespace: ds.metadata.namespace, labelSelector: selectorString(ds.spec.selector) },
    );
    return list.items.filter((p) => controllerRef(p)?.uid === ds.metadata.uid);
  }

  private async execute(
    ds: DaemonSet,
    plan: Plan,
    template: ReturnType<typeof templateOf>,
    hash: string,
  ): Promise<void> {
    for (const node of plan.create) {
      try {
        const pod = await this.client.create(newDaemonPod(ds, template, hash, node));
        this.recorder.event(ds, "Normal", "SuccessfulCreate", `Created pod: ${pod.metadata.name}`);
      } catch (e) {
        this.recorder.event(ds, "Warning", "FailedCreate", `Error creating: ${errorText(e)}`);
        throw e;
      }
    }
    for (const pod of plan.delete) {
      try {
        await ignoreNotFound(
          this.client.delete(refOf(pod), { preconditions: { uid: pod.metadata.uid } }),
        );
        this.recorder.event(ds, "Normal", "SuccessfulDelete", `Deleted pod: ${pod.metadata.name}`);
      } catch (e) {
        this.recorder.event(ds, "Warning", "FailedDelete", `Error deleting: ${errorText(e)}`);
        throw e;
      }
    }
  }
}

/** updateDaemonSetStatus, over the state read at the start of the pass. */
export function computeStatus(
  ds: DaemonSet,
  nodes: NodeState[],
  hash: string,
  collisionCount: number,
  now: number,
): DaemonSetStatus {
  const minReady = ds.spec.minReadySeconds ?? 0;
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  for (const node of nodes) {
    const scheduled = node.pods.length > 0;
    if (node.placement.shouldRun) {
      desired++;
      if (!scheduled) continue;
      current++;
      const pod = node.pods[0]!;
      if (isReady(pod)) {
        ready++;
        if (isAvailable(pod, minReady, now)) available++;
      }
      if (node.pods.some((p) => hashOf(p) === hash)) updated++;
    } else if (scheduled) misscheduled++;
  }
  return {
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    desiredNumberScheduled: desired,
    numberReady: ready,
    observedGeneration: ds.metadata.generation ?? 1,
    updatedNumberScheduled: updated,
    numberAvailable: available,
    ...(desired - available > 0 ? { numberUnavailable: desired - available } : {}),
    ...(collisionCount ? { collisionCount } : {}),
  };
}
