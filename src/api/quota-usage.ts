/**
 * What an object costs a ResourceQuota, as kube's quota evaluators count it
 * (`pkg/quota/v1/evaluator/core` and `generic`): pods (`quota-pod-usage.ts`),
 * services (count, load balancers, node ports), persistent volume claims
 * (count, `requests.storage`, and both per storage class), and
 * `count/<resource>.<group>` for every other resource, with the legacy names
 * `configmaps`, `secrets`, `resourcequotas` and `replicationcontrollers`. Pure
 * functions on plain objects, shared by the ResourceQuota admission plugin and
 * the quota controller.
 */

import { parseQuantity } from "./quantity.js";
import { podEvaluator } from "./quota-pod-usage.js";
import type {
  Evaluator,
  GroupResource,
  ResourceQuota,
  ScopedResourceSelectorRequirement,
} from "./quota-types.js";
import {
  canonicalQuantity,
  maxInto,
  type QuantityList,
  type ResourceList,
} from "./resource-list.js";
import { claimClassName, type PersistentVolumeClaim } from "./storage.js";
import type { KubeObject } from "./types.js";

export {
  COMPUTE_RESOURCES,
  isNativeResource,
  podCharged,
  podChargeEnds,
  podTotals,
} from "./quota-pod-usage.js";
export type {
  Evaluator,
  GroupResource,
  ResourceQuota,
  ScopedResourceSelectorRequirement,
} from "./quota-types.js";

export const STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/";
const LEGACY_COUNT_NAMES = new Set([
  "configmaps",
  "secrets",
  "resourcequotas",
  "replicationcontrollers",
]);

/** Kinds quota never counts: core Events, as kube's default quota configuration ignores them. */
export function quotaIgnores(gr: GroupResource): boolean {
  return gr.group === "" && gr.resource === "events";
}

/** `count/pods`, `count/jobs.batch`: the object-count name of a resource. */
export function objectCountName(gr: GroupResource): string {
  return gr.group === "" ? `count/${gr.resource}` : `count/${gr.resource}.${gr.group}`;
}

/** The resource a `count/<resource>[.<group>]` name counts. */
export function countedResource(name: string): GroupResource | undefined {
  if (!name.startsWith("count/")) return undefined;
  const rest = name.slice("count/".length);
  const dot = rest.indexOf(".");
  return dot < 0
    ? { group: "", resource: rest }
    : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

const noScope = () => false;
const onCreate = (op: string) => op === "CREATE";
const noConstraints = () => undefined;

/** `count/<resource>` plus the legacy name for the four kinds that had one. */
function objectCountEvaluator(gr: GroupResource): Evaluator {
  const names = [objectCountName(gr)];
  if (gr.group === "" && LEGACY_COUNT_NAMES.has(gr.resource)) names.push(gr.resource);
  return {
    groupResource: gr,
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    handles: onCreate,
    matchesScope: noScope,
    usage: () => Object.fromEntries(names.map((n) => [n, "1"])),
    constraints: noConstraints,
  };
}

// ---- services ----

const SERVICE_RESOURCES = [
  "count/services",
  "services",
  "services.loadbalancers",
  "services.nodeports",
];

interface ServiceView extends KubeObject {
  spec?: {
    type?: string;
    ports?: { nodePort?: number }[];
    allocateLoadBalancerNodePorts?: boolean;
  };
}

function serviceUsage(obj: KubeObject): ResourceList {
  const spec = (obj as ServiceView).spec ?? {};
  const ports = spec.ports ?? [];
  const out: ResourceList = {
    "count/services": "1",
    services: "1",
    "services.loadbalancers": "0",
    "services.nodeports": "0",
  };
  if (spec.type === "NodePort") out["services.nodeports"] = String(ports.length);
  if (spec.type === "LoadBalancer") {
    out["services.loadbalancers"] = "1";
    // Without node port allocation only ports given one explicitly hold a node port.
    const held =
      spec.allocateLoadBalancerNodePorts === false
        ? ports.filter((p) => (p.nodePort ?? 0) !== 0).length
        : ports.length;
    out["services.nodeports"] = String(held);
  }
  return out;
}

const serviceEvaluator: Evaluator = {
  groupResource: { group: "", resource: "services" },
  matchingResources: (input) => input.filter((n) => SERVICE_RESOURCES.includes(n)),
  handles: () => true,
  matchesScope: noScope,
  usage: serviceUsage,
  constraints: noConstraints,
};

// ---- persistent volume claims ----

const CLAIM_RESOURCES = ["persistentvolumeclaims", "requests.storage"];

function claimMatchingResources(input: string[]): string[] {
  return input.filter(
    (n) =>
      n === "count/persistentvolumeclaims" ||
      CLAIM_RESOURCES.includes(n) ||
      CLAIM_RESOURCES.some((r) => n.endsWith(`${STORAGE_CLASS_SUFFIX}${r}`)),
  );
}

/** Whole bytes, rounded up (kube's `RoundUp(0)`), in the request's own format. */
function wholeBytes(q: string | number): string {
  const nano = parseQuantity(q);
  if (nano % 1_000_000_000n === 0n) return canonicalQuantity(q);
  return canonicalQuantity(String(nano / 1_000_000_000n + 1n));
}

function claimUsage(obj: KubeObject): ResourceList {
  const pvc = obj as PersistentVolumeClaim;
  const className = claimClassName(pvc);
  const out: ResourceList = { "count/persistentvolumeclaims": "1", persistentvolumeclaims: "1" };
  if (className) out[`${className}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`] = "1";
  const requested = pvc.spec?.resources?.requests?.storage;
  const allocated = (pvc.status as { allocatedResources?: QuantityList } | undefined)
    ?.allocatedResources?.storage;
  // An expansion in progress (or failed) is charged at the larger of request and allocation.
  const charged: ResourceList = {};
  for (const q of [requested, allocated]) if (q !== undefined) maxInto(charged, { storage: q });
  if (charged.storage !== undefined) {
    out["requests.storage"] = wholeBytes(charged.storage);
    if (className)
      out[`${className}${STORAGE_CLASS_SUFFIX}requests.storage`] = out["requests.storage"];
  }
  return out;
}

const claimEvaluator: Evaluator = {
  groupResource: { group: "", resource: "persistentvolumeclaims" },
  matchingResources: claimMatchingResources,
  handles: () => true,
  matchesScope: noScope,
  usage: claimUsage,
  constraints: noConstraints,
};

// ---- lookups ----

const SPECIAL = [podEvaluator, serviceEvaluator, claimEvaluator];

/** The evaluator of a resource: pods, services and claims have their own, every other kind is counted. */
export function evaluatorFor(gr: GroupResource): Evaluator {
  const special = SPECIAL.find(
    (e) => e.groupResource.group === gr.group && e.groupResource.resource === gr.resource,
  );
  return special ?? objectCountEvaluator(gr);
}

/** The resources a quota's `hard` names are measured on (names no resource accounts for are left out). */
export function resourcesTracked(names: string[]): GroupResource[] {
  const out = new Map<string, GroupResource>();
  const add = (gr: GroupResource) => out.set(`${gr.resource}.${gr.group}`, gr);
  for (const name of names) {
    const special = SPECIAL.find((e) => e.matchingResources([name]).length > 0);
    if (special) add(special.groupResource);
    else if (LEGACY_COUNT_NAMES.has(name)) add({ group: "", resource: name });
    else {
      const counted = countedResource(name);
      if (counted && !quotaIgnores(counted)) add(counted);
    }
  }
  return [...out.values()];
}

/** A quota's scopes and scope selector as one list of requirements. */
export function scopeSelectors(quota: ResourceQuota): ScopedResourceSelectorRequirement[] {
  return [
    ...(quota.spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: "Exists" })),
    ...(quota.spec?.scopeSelector?.matchExpressions ?? []),
  ];
}

/** kube's `generic.Matches`: the quota tracks one of the evaluator's resources, and the object is in every scope. */
export function quotaMatches(quota: ResourceQuota, ev: Evaluator, obj: KubeObject): boolean {
  const hard = Object.keys(quota.status?.hard ?? {});
  if (ev.matchingResources(hard).length === 0) return false;
  return scopeSelectors(quota).every((s) => ev.matchesScope(s, obj));
}
