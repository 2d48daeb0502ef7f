/**
 * One scheduling decision, a pure function of the pod and the cluster as the
 * scheduler sees it: filter the nodes (node-level filters, host ports, resources,
 * anti-affinity; the first failing filter gives a node's reason), then pick the
 * feasible node with the most cpu and memory left (ties by name). When none fits,
 * the message counts the reasons as kube-scheduler's FitError does:
 * `0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were unschedulable.`
 */
import { antiAffinityRefusal, type PlacedPod } from "./anti-affinity.js";
import { nodeRefusal } from "./node-filters.js";
import { nodePortsRefusal } from "./node-ports.js";
import { freeShare, insufficientResources } from "./resources.js";
import { isTerminal, type Node, type Pod } from "./types.js";

export interface ClusterView {
  nodes: Node[];
  /** Every pod bound (or assumed bound) to a node, with the node's name. */
  bound: { pod: Pod; nodeName: string }[];
}

export type Decision = { nodeName: string } | { unschedulable: string };

export const NO_NODES_MESSAGE = "no nodes available to schedule pods";

/** kube's FitError message for `total` nodes and the reasons counted over them. */
export function fitErrorMessage(total: number, reasons: Map<string, number>): string {
  if (total === 0) return NO_NODES_MESSAGE;
  const parts = [...reasons].map(([reason, n]) => `${n} ${reason}`).sort();
  return `0/${total} nodes are available: ${parts.join(", ")}.`;
}

/** The reasons `node` cannot take `pod`, empty when it can. */
export function refusals(pod: Pod, node: Node, onNode: Pod[], placed: PlacedPod[]): string[] {
  const own = nodeRefusal(pod, node) ?? nodePortsRefusal(pod, onNode);
  if (own) return [own];
  const resources = insufficientResources(pod, node, onNode);
  if (resources.length > 0) return resources;
  const anti = antiAffinityRefusal(pod, node, placed);
  return anti ? [anti] : [];
}

export function schedule(pod: Pod, view: ClusterView): Decision {
  const byName = new Map(view.nodes.map((n) => [n.metadata.name ?? "", n]));
  const onNode = new Map<string, Pod[]>();
  const placed: PlacedPod[] = [];
  for (const { pod: p, nodeName } of view.bound) {
    const node = byName.get(nodeName);
    if (!node || isTerminal(p) || p.metadata.uid === pod.metadata.uid) continue;
    onNode.set(nodeName, [...(onNode.get(nodeName) ?? []), p]);
    placed.push({ pod: p, node });
  }
  const reasons = new Map<string, number>();
  let best: { name: string; score: number } | undefined;
  for (const [name, node] of byName) {
    const pods = onNode.get(name) ?? [];
    const why = refusals(pod, node, pods, placed);
    for (const r of why) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    if (why.length > 0) continue;
    const score = freeShare(pod, node, pods);
    if (!best || score > best.score || (score === best.score && name < best.name))
      best = { name, score };
  }
  if (best) return { nodeName: best.name };
  return { unschedulable: fitErrorMessage(view.nodes.length, reasons) };
}
