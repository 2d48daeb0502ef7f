/**
 * The DaemonSet controller's decisions, as pure functions of the nodes and the
 * pods on each (kube's manage and rollingUpdate):
 *
 * - manage: a node that should run the pod and has none gets one; a node whose
 *   pods may not continue loses them all; failed pods are deleted (to be made
 *   again); of several pods on a node the oldest stays (with maxSurge, the
 *   oldest of each revision).
 * - rolling update, maxSurge 0: old pods are deleted while fewer than
 *   maxUnavailable nodes are unavailable; an old pod that is not available is
 *   replaced at once.
 * - rolling update, maxSurge > 0: a new pod is created beside an available old
 *   one on up to maxSurge nodes at a time (at once where the old one is not
 *   available); the old pod goes once the new one is available.
 */
import type { DaemonSet, Pod } from "../../api/index.js";
import { scaledValue } from "../../api/index.js";
import { hashOf, isAvailable, type NodePlacement } from "./daemon-pods.js";

export interface NodeState {
  name: string;
  placement: NodePlacement;
  /** The daemon pods aimed at the node, oldest first, not being deleted. */
  pods: Pod[];
}

export interface Plan {
  /** Nodes that get a new pod of the update revision. */
  create: string[];
  delete: Pod[];
}

const oldestFirst = (a: Pod, b: Pod) =>
  (a.metadata.creationTimestamp ?? "").localeCompare(b.metadata.creationTimestamp ?? "") ||
  (a.metadata.name ?? "").localeCompare(b.metadata.name ?? "");

export function sortPods(pods: Pod[]): Pod[] {
  return [...pods].sort(oldestFirst);
}

export function rollingParameters(ds: DaemonSet, desired: number) {
  const rolling = ds.spec.updateStrategy?.rollingUpdate ?? {};
  const surge = scaledValue(rolling.maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(rolling.maxUnavailable ?? 1, desired, true);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { maxSurge: surge, maxUnavailable: unavailable };
}

/** podsShouldBeOnNode over every node. */
export function manage(nodes: NodeState[], hash: string, surging: boolean): Plan {
  const plan: Plan = { create: [], delete: [] };
  for (const node of nodes) {
    const { shouldRun, shouldContinueRunning } = node.placement;
    if (!shouldContinueRunning) {
      plan.delete.push(...node.pods);
      continue;
    }
    const failed = node.pods.filter((p) => p.status?.phase === "Failed");
    plan.delete.push(...failed);
    const running = node.pods.filter((p) => p.status?.phase !== "Failed");
    if (running.length === 0) {
      if (shouldRun) plan.create.push(node.name);
      continue;
    }
    if (!surging) {
      plan.delete.push(...running.slice(1));
      continue;
    }
    const updated = running.filter((p) => hashOf(p) === hash);
    const old = running.filter((p) => hashOf(p) !== hash);
    plan.delete.push(...updated.slice(1), ...old.slice(1));
  }
  return plan;
}

/** rollingUpdate: the old pods to delete and the nodes to surge onto. */
export function rollingUpdate(ds: DaemonSet, nodes: NodeState[], hash: string, now: number): Plan {
  const running = nodes.filter((n) => n.placement.shouldRun);
  const { maxSurge, maxUnavailable } = rollingParameters(ds, running.length);
  const minReady = ds.spec.minReadySeconds ?? 0;
  const available = (p: Pod) => isAvailable(p, minReady, now);
  const plan: Plan = { create: [], delete: [] };
  if (maxSurge === 0) {
    let unavailable = 0;
    const free: Pod[] = [];
    const candidates: Pod[] = [];
    for (const node of running) {
      const fresh = node.pods.find((p) => hashOf(p) === hash);
      const old = node.pods.find((p) => hashOf(p) !== hash);
      if (node.pods.length > 1 || (!fresh && !old)) unavailable++;
      else if (fresh) {
        if (!available(fresh)) unavailable++;
      } else if (old && !available(old)) free.push(old);
      else if (old) candidates.push(old);
    }
    const remaining = Math.max(0, maxUnavailable - unavailable - free.length);
    plan.delete.push(...free, ...candidates.slice(0, remaining));
    return plan;
  }
  let surging = 0;
  const candidates: string[] = [];
  for (const node of running) {
    const fresh = node.pods.find((p) => hashOf(p) === hash);
    const old = node.pods.find((p) => hashOf(p) !== hash);
    if (!old) continue;
    if (!fresh) {
      if (!available(old)) plan.create.push(node.name);
      else candidates.push(node.name);
    } else if (available(fresh)) plan.delete.push(old);
    else surging++;
  }
  plan.create.push(...candidates.slice(0, Math.max(0, maxSurge - surging)));
  return plan;
}
