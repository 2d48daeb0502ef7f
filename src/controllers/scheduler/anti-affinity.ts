/**
 * Required pod anti-affinity (`requiredDuringSchedulingIgnoredDuringExecution`),
 * both ways as kube-scheduler's InterPodAffinity checks it: the incoming pod may
 * not land in a topology domain (the nodes sharing the term's `topologyKey`
 * label value; `kubernetes.io/hostname` is the node itself) that holds a pod its
 * terms select, nor in one where an existing pod's terms select it. A term's
 * namespaces are its `namespaces`, or every namespace for an empty
 * `namespaceSelector`, or else the pod's own. Non-empty namespace selectors are
 * not supported and select no other namespace.
 */
import { labelSelectorFromObject } from "../../api/index.js";
import {
  isTerminal,
  type LabelSelectorSpec,
  type Node,
  type Pod,
  type PodAffinityTerm,
  topologyValue,
} from "./types.js";

export const REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
export const REASON_EXISTING_ANTI_AFFINITY =
  "node(s) didn't satisfy existing pods anti-affinity rules";

/** A pod bound to a node (or assumed bound while the binding is on its way). */
export interface PlacedPod {
  pod: Pod;
  node: Node;
}

function requiredTerms(pod: Pod): PodAffinityTerm[] {
  return pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
}

function isEmptySelector(s: LabelSelectorSpec | null | undefined): boolean {
  return (
    !!s && Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0
  );
}

/** True when `term`, written in a pod of `ownerNamespace`, selects `target`. */
export function termSelects(term: PodAffinityTerm, ownerNamespace: string, target: Pod): boolean {
  if (!term.labelSelector) return false; // a null selector selects nothing
  const ns = target.metadata.namespace ?? "";
  const inScope = isEmptySelector(term.namespaceSelector)
    ? true
    : term.namespaces?.length
      ? term.namespaces.includes(ns)
      : ns === ownerNamespace;
  if (!inScope) return false;
  const labels = target.metadata.labels ?? {};
  return labelSelectorFromObject(term.labelSelector).matches((k) => labels[k]);
}

function sameDomain(a: Node, b: Node, key: string): boolean {
  const va = topologyValue(a, key);
  return va !== undefined && va === topologyValue(b, key);
}

/**
 * kube's anti-affinity reason for placing `pod` on `node`, or undefined when
 * allowed; existing pods' terms are checked first, as kube does.
 */
export function antiAffinityRefusal(pod: Pod, node: Node, placed: PlacedPod[]): string | undefined {
  const others = placed.filter(
    (p) => !isTerminal(p.pod) && p.pod.metadata.uid !== pod.metadata.uid,
  );
  const ownNs = pod.metadata.namespace ?? "";
  for (const p of others) {
    const theirNs = p.pod.metadata.namespace ?? "";
    for (const term of requiredTerms(p.pod)) {
      if (sameDomain(p.node, node, term.topologyKey) && termSelects(term, theirNs, pod))
        return REASON_EXISTING_ANTI_AFFINITY;
    }
  }
  for (const term of requiredTerms(pod)) {
    if (
      others.some(
        (p) => sameDomain(p.node, node, term.topologyKey) && termSelects(term, ownNs, p.pod),
      )
    )
      return REASON_ANTI_AFFINITY;
  }
  return undefined;
}
