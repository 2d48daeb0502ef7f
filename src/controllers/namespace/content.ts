/**
 * What is left in a namespace, per resource: how many objects, and which
 * finalizers hold them. The namespace controller reports it in conditions.
 */
import type { KubeObject } from "../../api/index.js";

export interface Remaining {
  /** `configmaps`, `crontabs.stable.example.com` → count */
  resources: Map<string, number>;
  /** finalizer → count of objects holding it */
  finalizers: Map<string, number>;
}

export function emptyRemaining(): Remaining {
  return { resources: new Map(), finalizers: new Map() };
}

export function groupResource(group: string, plural: string): string {
  return group === "" ? plural : `${plural}.${group}`;
}

export function countRemaining(into: Remaining, resource: string, items: KubeObject[]): void {
  if (items.length === 0) return;
  into.resources.set(resource, (into.resources.get(resource) ?? 0) + items.length);
  for (const obj of items) {
    for (const f of obj.metadata.finalizers ?? [])
      into.finalizers.set(f, (into.finalizers.get(f) ?? 0) + 1);
  }
}

export function isEmpty(r: Remaining): boolean {
  return r.resources.size === 0;
}

/** kube's wording: `configmaps has 1 resource instances, secrets has 2 resource instances`. */
export function describeResources(r: Remaining): string {
  return [...r.resources]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([res, n]) => `${res} has ${n} resource instances`)
    .join(", ");
}

/** kube's wording: `example.com/hold in 1 resource instances`. */
export function describeFinalizers(r: Remaining): string {
  return [...r.finalizers]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([f, n]) => `${f} in ${n} resource instances`)
    .join(", ");
}
