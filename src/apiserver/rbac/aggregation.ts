/**
 * ClusterRole aggregation (kube's clusterrole-aggregation controller, run inside
 * the apiserver because Hearth has no controller runtime yet): a ClusterRole with
 * an `aggregationRule` gets, as its stored `.rules`, the union of the rules of
 * every other ClusterRole its selectors match, taken in name order without
 * duplicates. The loop reacts to the policy cache and writes through the store
 * with revision checks; a lost race is retried when the winner's write arrives.
 */
import { isDeepStrictEqual } from "node:util";
import { labelSelectorFromObject } from "../../api/index.js";
import type { ResourceType } from "../resources/resource-type.js";
import type { ObjectStore } from "../store/object-store.js";
import type { PolicyCache } from "./policy-cache.js";
import type { ClusterRole, PolicyRule } from "./types.js";

/** A rule with absent lists and empty lists made the same (apimachinery's semantic equality). */
function normalized(rule: PolicyRule): PolicyRule {
  const out: PolicyRule = { verbs: rule.verbs ?? [] };
  for (const k of ["apiGroups", "resources", "resourceNames", "nonResourceURLs"] as const) {
    if ((rule[k] ?? []).length > 0) out[k] = rule[k];
  }
  return out;
}

export function sameRules(a: PolicyRule[], b: PolicyRule[]): boolean {
  return isDeepStrictEqual(a.map(normalized), b.map(normalized));
}

/** The rules `role` aggregates from `all`, or undefined if it has no aggregationRule. */
export function aggregatedRules(
  role: ClusterRole,
  all: Iterable<ClusterRole>,
): PolicyRule[] | undefined {
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (!role.aggregationRule) return undefined;
  const sorted = [...all].sort((x, y) =>
    (x.metadata.name ?? "") < (y.metadata.name ?? "") ? -1 : 1,
  );
  const rules: PolicyRule[] = [];
  const seen: PolicyRule[] = [];
  for (const selector of selectors ?? []) {
    const matches = labelSelectorFromObject(selector);
    for (const other of sorted) {
      if (other.metadata.name === role.metadata.name) continue;
      if (!matches.matches((k) => other.metadata.labels?.[k])) continue;
      for (const rule of other.rules ?? []) {
        const n = normalized(rule);
        if (seen.some((s) => isDeepStrictEqual(s, n))) continue;
        seen.push(n);
        rules.push(rule);
      }
    }
  }
  return rules;
}

export class ClusterRoleAggregator {
  private running: Promise<void> | undefined;
  private dirty = false;
  private stopped = false;

  constructor(
    private readonly cache: PolicyCache,
    private readonly store: ObjectStore,
    private readonly clusterRoles: ResourceType,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {}

  /** Aggregates now and after every ClusterRole change, until `signal` aborts. */
  start(signal: AbortSignal): void {
    signal.addEventListener("abort", () => (this.stopped = true), { once: true });
    this.cache.onChange((c) => {
      if (c.plural === "clusterroles") this.schedule();
    });
    this.schedule();
  }

  /** Resolves once no aggregation is pending (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.dirty = true;
    if (this.running) return;
    this.running = (async () => {
      while (this.dirty && !this.stopped) {
        this.dirty = false;
        await this.syncAll();
      }
    })().finally(() => {
      this.running = undefined;
    });
  }

  private async syncAll(): Promise<void> {
    for (const role of [...this.cache.clusterRoles()]) {
      const rules = aggregatedRules(role, this.cache.clusterRoles());
      if (rules === undefined || sameRules(rules, role.rules ?? [])) continue;
      try {
        await this.store.update(
          this.clusterRoles,
          { ...role, rules },
          Number(role.metadata.resourceVersion),
        );
      } catch (e) {
        // Conflict or NotFound: the newer state is on its way through the watch.
        if ((e as { code?: number }).code !== 409 && (e as { code?: number }).code !== 404)
          this.log(`aggregating ClusterRole ${role.metadata.name} failed`, e);
      }
    }
  }
}
