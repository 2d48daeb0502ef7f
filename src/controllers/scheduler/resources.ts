/**
 * Resource accounting as kube-scheduler's NodeResourcesFit does it: a pod's
 * request is the sum of its containers' requests, or the largest init
 * container's if that is more, plus overhead; a container without a request uses
 * its limit (the API's defaulting). A node fits when every requested resource is
 * within allocatable minus what its pods already request, and it has room for one
 * more pod (a node that states no `pods` allocatable takes any number). cpu
 * counts in millicores, everything else in units.
 */
import { quantityMilliValue, quantityValue } from "../../api/index.js";
import type { Container, Node, Pod, ResourceList } from "./types.js";

export type Amounts = Map<string, number>;

function amount(name: string, q: string | number): number {
  return Number(name === "cpu" ? quantityMilliValue(q) : quantityValue(q));
}

function containerRequests(c: Container): Amounts {
  const out: Amounts = new Map();
  const names = new Set([
    ...Object.keys(c.resources?.requests ?? {}),
    ...Object.keys(c.resources?.limits ?? {}),
  ]);
  for (const name of names) {
    const q = c.resources?.requests?.[name] ?? c.resources?.limits?.[name];
    if (q !== undefined) out.set(name, amount(name, q));
  }
  return out;
}

function addInto(into: Amounts, more: Amounts): void {
  for (const [k, v] of more) into.set(k, (into.get(k) ?? 0) + v);
}

/** What a pod requests of a node. */
export function podRequests(pod: Pod): Amounts {
  const total: Amounts = new Map();
  for (const c of pod.spec?.containers ?? []) addInto(total, containerRequests(c));
  for (const c of pod.spec?.initContainers ?? [])
    for (const [k, v] of containerRequests(c)) if (v > (total.get(k) ?? 0)) total.set(k, v);
  addInto(total, amountsOf(pod.spec?.overhead));
  return total;
}

export function amountsOf(list: ResourceList | undefined): Amounts {
  const out: Amounts = new Map();
  for (const [k, q] of Object.entries(list ?? {})) out.set(k, amount(k, q));
  return out;
}

/** A node's allocatable resources (its capacity when it reports no allocatable). */
export function allocatable(node: Node): Amounts {
  return amountsOf(node.status?.allocatable ?? node.status?.capacity);
}

/** The sum of what these pods request. */
export function requested(pods: Pod[]): Amounts {
  const total: Amounts = new Map();
  for (const p of pods) addInto(total, podRequests(p));
  return total;
}

/**
 * kube's reasons a node cannot take the pod (`Too many pods`, `Insufficient cpu`),
 * empty when it fits. `onNode` are the pods already bound there.
 */
export function insufficientResources(pod: Pod, node: Node, onNode: Pod[]): string[] {
  const reasons: string[] = [];
  const alloc = allocatable(node);
  const maxPods = alloc.get("pods");
  if (maxPods !== undefined && onNode.length + 1 > maxPods) reasons.push("Too many pods");
  const used = requested(onNode);
  for (const [name, want] of podRequests(pod)) {
    if (want <= 0 || name === "pods") continue;
    const free = (alloc.get(name) ?? 0) - (used.get(name) ?? 0);
    if (want > free) reasons.push(`Insufficient ${name}`);
  }
  return reasons;
}

/** The share of the node's cpu and memory left after placing the pod (0–1 each, averaged). */
export function freeShare(pod: Pod, node: Node, onNode: Pod[]): number {
  const alloc = allocatable(node);
  const used = requested([...onNode, pod]);
  let sum = 0;
  for (const name of ["cpu", "memory"]) {
    const cap = alloc.get(name) ?? 0;
    sum += cap > 0 ? Math.max(0, cap - (used.get(name) ?? 0)) / cap : 0;
  }
  return sum / 2;
}
