/**
 * Storage keys of API objects: `/registry/<group|core>/<plural>/<namespace>/<name>`
 * for namespaced kinds and `/registry/<group|core>/<plural>/<name>` for cluster-scoped
 * ones. The group keeps two CRDs with one plural apart.
 */
import type { ResourceType } from "../resources/resource-type.js";

export function collectionPrefix(t: Pick<ResourceType, "group" | "plural">): string {
  return `/registry/${t.group === "" ? "core" : t.group}/${t.plural}/`;
}

/** The prefix of a list: one namespace, or all of them (namespace undefined). */
export function listPrefix(
  t: Pick<ResourceType, "group" | "plural" | "namespaced">,
  namespace?: string,
): string {
  const base = collectionPrefix(t);
  return t.namespaced && namespace ? `${base}${namespace}/` : base;
}

export function objectKey(
  t: Pick<ResourceType, "group" | "plural" | "namespaced">,
  namespace: string | undefined,
  name: string,
): string {
  const base = collectionPrefix(t);
  return t.namespaced ? `${base}${namespace ?? ""}/${name}` : `${base}${name}`;
}
