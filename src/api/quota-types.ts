/**
 * The types of quota accounting: a ResourceQuota and the evaluator contract
 * each counted kind implements. A leaf, so that `quota-usage.ts` and the pod
 * evaluator in `quota-pod-usage.ts` can both use them without importing each other.
 */
import type { QuantityList, ResourceList } from "./resource-list.js";
import type { KubeObject } from "./types.js";

export interface GroupResource {
  group: string;
  resource: string;
}

export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface ResourceQuota extends KubeObject {
  spec?: {
    hard?: QuantityList;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] };
  };
  status?: { hard?: QuantityList; used?: QuantityList };
}

/** One kind's accounting, as kube's `quota.Evaluator`. */
export interface Evaluator {
  groupResource: GroupResource;
  /** The names of `names` this evaluator accounts for. */
  matchingResources(names: string[]): string[];
  /** Whether an admission request can change usage (creates; updates where usage can change). */
  handles(operation: "CREATE" | "UPDATE", obj: KubeObject, old: KubeObject | undefined): boolean;
  matchesScope(selector: ScopedResourceSelectorRequirement, obj: KubeObject): boolean;
  /** The object's usage; `now` (ms) decides whether a deleting pod still counts. */
  usage(obj: KubeObject, now: number): ResourceList;
  /** kube's `Constraints`: why the object cannot be admitted under a quota tracking `required`. */
  constraints(required: string[], obj: KubeObject): string | undefined;
}
