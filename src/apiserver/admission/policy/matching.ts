/**
 * Whether a request falls under a MatchResources (a policy's matchConstraints or a
 * binding's matchResources), as kube's generic policy matcher decides: namespace
 * selector, object selector, exclude rules, then resource rules (operations ×
 * groups × versions × resources incl. `*` and `pods/status`-style subresources,
 * scope, resourceNames). An empty resourceRules list does not constrain.
 */

import type { KubeObject } from "../../../api/index.js";
import { labelSelectorFromObject } from "../../../api/index.js";
import type { LabelSelector, MatchResources, NamedRuleWithOperations } from "./api-types.js";

/** The request as the matcher sees it. */
export interface MatchRequest {
  operation: string;
  group: string;
  version: string;
  /** The resource plural. */
  resource: string;
  subresource: string;
  /** "" for cluster-scoped objects (and for Namespace objects themselves). */
  namespace: string;
  name: string;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
  /** Labels of the request's namespace; undefined when it does not exist. */
  namespaceLabels(): Promise<Record<string, string> | undefined>;
}

export function isNamespaceResource(r: Pick<MatchRequest, "group" | "resource">): boolean {
  return r.group === "" && r.resource === "namespaces";
}

export async function matchesResources(
  m: MatchResources | undefined,
  req: MatchRequest,
): Promise<boolean> {
  if (!m) return true;
  if (!(await matchesNamespaceSelector(m.namespaceSelector, req))) return false;
  if (!matchesObjectSelector(m.objectSelector, req)) return false;
  if ((m.excludeResourceRules ?? []).some((r) => matchesRule(r, req))) return false;
  const rules = m.resourceRules ?? [];
  return rules.length === 0 || rules.some((r) => matchesRule(r, req));
}

export function matchesRule(rule: NamedRuleWithOperations, req: MatchRequest): boolean {
  const names = rule.resourceNames ?? [];
  return (
    matchesScope(rule.scope, req) &&
    (rule.operations ?? []).some((op) => op === "*" || op === req.operation) &&
    (rule.apiGroups ?? []).some((g) => g === "*" || g === req.group) &&
    (rule.apiVersions ?? []).some((v) => v === "*" || v === req.version) &&
    (rule.resources ?? []).some((r) => matchesResourceName(r, req)) &&
    (names.length === 0 || names.includes(req.name))
  );
}

/** `pods` (no subresources), `*` (all, no subresources), `pods/*`, `*\/status`, `*\/*`. */
function matchesResourceName(pattern: string, req: MatchRequest): boolean {
  const slash = pattern.indexOf("/");
  const res = slash < 0 ? pattern : pattern.slice(0, slash);
  const sub = slash < 0 ? "" : pattern.slice(slash + 1);
  return (res === "*" || res === req.resource) && (sub === "*" || sub === req.subresource);
}

/** Namespace objects are cluster-scoped; subresources share their parent's scope. */
function matchesScope(scope: string | undefined, req: MatchRequest): boolean {
  if (scope === undefined || scope === "*") return true;
  const clusterScoped = isNamespaceResource(req) || req.namespace === "";
  if (scope === "Cluster") return clusterScoped;
  if (scope === "Namespaced") return !clusterScoped;
  return false;
}

function isEmpty(selector: LabelSelector | undefined): boolean {
  return (
    !selector ||
    (Object.keys(selector.matchLabels ?? {}).length === 0 &&
      (selector.matchExpressions ?? []).length === 0)
  );
}

/**
 * Cluster-scoped objects other than namespaces always match. A Namespace being
 * created or updated is matched on its own new labels; everything else on the
 * stored namespace's.
 */
async function matchesNamespaceSelector(
  selector: LabelSelector | undefined,
  req: MatchRequest,
): Promise<boolean> {
  if (isEmpty(selector)) return true;
  let labels: Record<string, string> | undefined;
  if (isNamespaceResource(req)) {
    const own =
      req.subresource === "" && (req.operation === "CREATE" || req.operation === "UPDATE")
        ? req.object
        : (req.oldObject ?? req.object);
    labels = own?.metadata.labels;
  } else if (req.namespace === "") {
    return true;
  } else {
    labels = await req.namespaceLabels();
    if (labels === undefined) return false;
  }
  const sel = labelSelectorFromObject(selector ?? {});
  return sel.matches((k) => labels?.[k]);
}

/** Matches when the new or the old object carries matching labels; a missing object never does. */
function matchesObjectSelector(selector: LabelSelector | undefined, req: MatchRequest): boolean {
  if (isEmpty(selector)) return true;
  const sel = labelSelectorFromObject(selector ?? {});
  return [req.object, req.oldObject].some(
    (o) => o !== undefined && sel.matches((k) => o.metadata.labels?.[k]),
  );
}
