/**
 * Whether one set of rules covers another (kube's `validation.Covers` from
 * component-helpers): the covered rules are broken down to one verb, group,
 * resource and name each, and every piece must be matched by some owner rule.
 * Also kube's compact printing of the rules left uncovered.
 */
import type { PolicyRule } from "./types.js";

const has = (set: string[] | undefined, v: string) => (set ?? []).includes(v);
const hasAll = (set: string[] | undefined, vs: string[] | undefined) =>
  (vs ?? []).every((v) => has(set, v));

/** One rule per verb × group × resource × name, and per verb × non-resource URL. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? [])
    for (const resource of rule.resources ?? [])
      for (const verb of rule.verbs ?? []) {
        const base = { apiGroups: [group], resources: [resource], verbs: [verb] };
        if ((rule.resourceNames ?? []).length === 0) out.push(base);
        else
          for (const name of rule.resourceNames ?? []) out.push({ ...base, resourceNames: [name] });
      }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourcesCover(owner: string[] | undefined, wanted: string[] | undefined): boolean {
  if (has(owner, "*") || hasAll(owner, wanted)) return true;
  return (wanted ?? []).every((path) => {
    if (has(owner, path)) return true;
    const slash = path.indexOf("/");
    return slash >= 0 && has(owner, `*/${path.slice(slash + 1)}`);
  });
}

function urlCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith("*") && path.startsWith(owner.replace(/\*+$/, "")));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const names = sub.resourceNames ?? [];
  const ownerNames = owner.resourceNames ?? [];
  return (
    (has(owner.verbs, "*") || hasAll(owner.verbs, sub.verbs)) &&
    (has(owner.apiGroups, "*") || hasAll(owner.apiGroups, sub.apiGroups)) &&
    resourcesCover(owner.resources, sub.resources) &&
    (sub.nonResourceURLs ?? []).every((p) =>
      (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, p)),
    ) &&
    (names.length === 0
      ? ownerNames.length === 0
      : ownerNames.length === 0 || hasAll(ownerNames, names))
  );
}

/** The pieces of `wanted` that no rule of `owner` covers (empty: covered). */
export function uncovered(owner: PolicyRule[], wanted: PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/** Merges broken-down rules that differ only in verb (kube's CompactRules). */
export function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const byResource = new Map<string, PolicyRule>();
  for (const r of rules) {
    const single = (r.apiGroups ?? []).length === 1 && (r.resources ?? []).length === 1;
    if (!single || (r.resourceNames ?? []).length > 0 || (r.nonResourceURLs ?? []).length > 0) {
      out.push(r);
      continue;
    }
    const key = `${r.apiGroups![0]}\u0000${r.resources![0]}`;
    const existing = byResource.get(key);
    if (existing)
      existing.verbs = [...existing.verbs, ...r.verbs.filter((v) => !existing.verbs.includes(v))];
    else {
      const copy = { ...r, verbs: [...r.verbs] };
      byResource.set(key, copy);
      out.push(copy);
    }
  }
  return out;
}

const q = (list: string[]) => `[${list.map((s) => JSON.stringify(s)).join(" ")}]`;

/** kube's `CompactString`: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${q(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${q(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${q(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${q(r.resourceNames)}`);
  if (r.verbs?.length) parts.push(`Verbs:${q(r.verbs)}`);
  return `{${parts.join(", ")}}`;
}
