/**
 * Whether one PolicyRule allows one request, with kube's matching of verbs,
 * API groups, resources (`*`, `resource/subresource`, `*\/subresource`),
 * resource names and non-resource URLs (exact, `*`, or a trailing `*` prefix),
 * as `plugin/pkg/auth/authorizer/rbac` and `pkg/apis/rbac/v1/evaluation_helpers`.
 */
import type { AuthorizationAttributes } from "../auth/types.js";
import type { PolicyRule } from "./types.js";

const ALL = "*";

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === ALL || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/** `combined` is `resource` or `resource/subresource`. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource !== "" && r === `*/${subresource}`) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === ALL || url === path) return true;
    if (url.endsWith(ALL) && path.startsWith(url.slice(0, -1))) return true;
  }
  return false;
}

export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attrs.verb)) return false;
  if (!attrs.isResourceRequest) return nonResourceURLMatches(rule, attrs.path);
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return (
    apiGroupMatches(rule, attrs.apiGroup) &&
    resourceMatches(rule, combined, attrs.subresource) &&
    resourceNameMatches(rule, attrs.name)
  );
}
