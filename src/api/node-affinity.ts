/**
 * Required node affinity as kube-scheduler and the DaemonSet controller read it
 * (component-helpers' nodeaffinity): `nodeSelector` AND any one of the
 * `requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`, each term
 * the AND of its `matchExpressions` (node labels: In, NotIn, Exists,
 * DoesNotExist, Gt, Lt) and `matchFields` (only `metadata.name`: In, NotIn).
 * A term with no requirements matches nothing, as in kube.
 */
import type { KubeObject } from "./types.js";

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeAffinitySpec {
  nodeSelector?: Record<string, string>;
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    };
  };
}

function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case "In":
      return value !== undefined && values.includes(value);
    case "NotIn":
      return value === undefined || !values.includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
    case "Gt":
    case "Lt": {
      if (value === undefined || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0] ?? ""))
        return false;
      const have = BigInt(value);
      const want = BigInt(values[0]!);
      return r.operator === "Gt" ? have > want : have < want;
    }
    default:
      return false;
  }
}

function termMatches(term: NodeSelectorTerm, node: KubeObject): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  return (
    exprs.every((r) => requirementMatches(r, labels[r.key])) &&
    fields.every(
      (r) => r.key === "metadata.name" && requirementMatches(r, node.metadata.name ?? ""),
    )
  );
}

/** True when the pod spec's nodeSelector and required node affinity admit the node. */
export function nodeAffinityMatches(spec: NodeAffinitySpec | undefined, node: KubeObject): boolean {
  const labels = node.metadata.labels ?? {};
  if (!Object.entries(spec?.nodeSelector ?? {}).every(([k, v]) => labels[k] === v)) return false;
  const required = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => termMatches(t, node));
}
