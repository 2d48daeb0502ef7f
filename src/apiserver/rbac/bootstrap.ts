/**
 * Writes the bootstrap policy on every start, idempotently, as kube-apiserver's
 * `rbac/bootstrap-roles` hook: missing roles and bindings are created; existing
 * ones annotated `rbac.authorization.kubernetes.io/autoupdate: "true"` get the
 * labels, rules, aggregation selectors and subjects they lack (nothing is
 * removed); anything else is left as the cluster's administrator made it.
 */

import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/index.js";
import { rfc3339 } from "../../api/index.js";

import type { ResourceRegistry } from "../resources/registry.js";
import type { ResourceType } from "../resources/resource-type.js";
import type { ObjectStore } from "../store/object-store.js";
import {
  BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
  BOOTSTRAP_CLUSTER_ROLES,
  type BootstrapClusterRole,
  type BootstrapClusterRoleBinding,
} from "./bootstrap-policy.js";
import {
  AUTOUPDATE_ANNOTATION,
  BOOTSTRAPPING_LABEL,
  type ClusterRole,
  type PolicyRule,
  RBAC_GROUP,
  type RoleBinding,
} from "./types.js";

function metadata(name: string, labels: Record<string, string> = {}): KubeObject["metadata"] {
  return {
    name,
    uid: randomUUID(),
    creationTimestamp: rfc3339(),
    labels: { [BOOTSTRAPPING_LABEL]: "rbac-defaults", ...labels },
    annotations: { [AUTOUPDATE_ANNOTATION]: "true" },
  };
}

function clusterRoleObject(b: BootstrapClusterRole): ClusterRole {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "ClusterRole",
    metadata: metadata(b.name, b.labels),
    ...(b.aggregateFrom
      ? {
          aggregationRule: {
            clusterRoleSelectors: b.aggregateFrom.map((m) => ({ matchLabels: m })),
          },
        }
      : {}),
    rules: b.rules,
  };
}

function bindingObject(b: BootstrapClusterRoleBinding): RoleBinding {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "ClusterRoleBinding",
    metadata: metadata(b.name),
    roleRef: { apiGroup: RBAC_GROUP, kind: "ClusterRole", name: b.role },
    subjects: b.subjects,
  };
}

/** Adds to `existing` what `expected` has and it lacks; undefined when nothing is missing. */
export function reconcileClusterRole(
  existing: ClusterRole,
  expected: ClusterRole,
): ClusterRole | undefined {
  if (existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] !== "true") return undefined;
  const next: ClusterRole = structuredClone(existing);
  next.metadata.labels = { ...expected.metadata.labels, ...existing.metadata.labels };
  const selectors = [...(existing.aggregationRule?.clusterRoleSelectors ?? [])];
  for (const s of expected.aggregationRule?.clusterRoleSelectors ?? [])
    if (!selectors.some((x) => isDeepStrictEqual(x, s))) selectors.push(s);
  if (expected.aggregationRule) next.aggregationRule = { clusterRoleSelectors: selectors };
  else {
    const rules: PolicyRule[] = [...(existing.rules ?? [])];
    for (const rule of expected.rules ?? [])
      if (!rules.some((x) => isDeepStrictEqual(x, rule))) rules.push(rule);
    next.rules = rules;
  }
  return isDeepStrictEqual(next, existing) ? undefined : next;
}

export function reconcileBinding(
  existing: RoleBinding,
  expected: RoleBinding,
): RoleBinding | undefined {
  if (existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] !== "true") return undefined;
  const subjects = [...(existing.subjects ?? [])];
  for (const s of expected.subjects ?? [])
    if (!subjects.some((x) => x.kind === s.kind && x.name === s.name)) subjects.push(s);
  if (subjects.length === (existing.subjects ?? []).length) return undefined;
  return { ...existing, subjects };
}

async function ensure<T extends KubeObject>(
  store: ObjectStore,
  t: ResourceType,
  expected: T,
  reconcile: (existing: T, expected: T) => T | undefined,
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = (await store.tryGet(t, undefined, expected.metadata.name!)) as T | undefined;
    try {
      if (!existing) {
        await store.create(t, expected);
        return;
      }
      const next = reconcile(existing, expected);
      if (next) await store.update(t, next, Number(existing.metadata.resourceVersion));
      return;
    } catch (e) {
      const code = (e as { code?: number }).code;
      if (code !== 409 && code !== 404) throw e;
      // raced with another writer (another apiserver starting): read again
    }
  }
}

export async function ensureBootstrapPolicy(
  store: ObjectStore,
  registry: ResourceRegistry,
): Promise<void> {
  const roles = registry.lookup(RBAC_GROUP, "v1", "clusterroles")!;
  const bindings = registry.lookup(RBAC_GROUP, "v1", "clusterrolebindings")!;
  for (const b of BOOTSTRAP_CLUSTER_ROLES)
    await ensure(store, roles, clusterRoleObject(b), reconcileClusterRole);
  for (const b of BOOTSTRAP_CLUSTER_ROLE_BINDINGS)
    await ensure(store, bindings, bindingObject(b), reconcileBinding);
}
