/**
 * Whether the engine may act on an object, decided from what the engine itself
 * recorded, never from the app's status alone. The inventory lives in the
 * app's status, which the engine writes but cannot keep others from writing
 * (a cluster admin, a role granting `*`, a bug), so before it prunes or deletes
 * an entry the engine checks, first on the entry and then on the live object:
 * - where: the object lies inside the app's ChildScope — one of the namespaces
 *   the module renders into, or one of the cluster-scoped objects it renders,
 *   by kind and name;
 * - whose: the object carries the labels the engine set when it applied it,
 *   naming this app's kind, group and name, and this app's uid.
 *
 * Labels are enough once the scope holds: anyone who may patch an object can
 * label it, but only objects inside the app's own namespaces count, and who can
 * write there (the tenant's levels and its ancestors') may delete what it can
 * write anyway; another tenant's objects and cluster-scoped ones the module
 * never renders are never acted on, whatever their labels say. The uid label
 * tells this app's children from those of an earlier app of the same name.
 * Children applied before the uid label existed carry only the name labels and
 * are accepted as this app's: every install re-applies what it renders with the
 * uid label, so only children pruned by the render or left by an uninstall
 * since then lack it, and they lie inside the scope like any other.
 */
import type { KubeObject } from "../../api/index.js";
import { describeEntry } from "./inventory.js";
import {
  APPS_GROUP,
  type App,
  type ChildScope,
  type InventoryEntry,
  LABEL_APP_GROUP,
  LABEL_APP_KIND,
  LABEL_APP_NAME,
  LABEL_APP_UID,
} from "./module.js";

/** The scope of a module without `scope`: the app's namespace, nothing cluster-scoped. */
export function defaultScope(app: App): ChildScope {
  return { namespaces: [app.metadata.namespace!], clusterScoped: [] };
}

const groupOf = (apiVersion: string) => (apiVersion.includes("/") ? apiVersion.split("/")[0]! : "");

function where(
  scope: ChildScope,
  at: { apiVersion: string; kind: string; name: string; namespace?: string | undefined },
): string | undefined {
  if (at.namespace) {
    if (scope.namespaces.includes(at.namespace)) return undefined;
    return `it is outside the app's namespaces (${scope.namespaces.join(", ")})`;
  }
  const declared = scope.clusterScoped.some(
    (c) =>
      c.kind === at.kind && c.name === at.name && groupOf(c.apiVersion) === groupOf(at.apiVersion),
  );
  return declared ? undefined : "it is a cluster-scoped object the app does not render";
}

/** Why the engine must not act on `entry`, judged before reading anything; undefined if it may look. */
export function entryProblem(scope: ChildScope, entry: InventoryEntry): string | undefined {
  return where(scope, entry);
}

/**
 * Why the engine must not act on `live`, the object an inventory entry named;
 * undefined when the engine applied it for this app.
 */
export function liveProblem(
  app: App,
  kind: string,
  scope: ChildScope,
  live: KubeObject,
): string | undefined {
  const outside = where(scope, {
    apiVersion: live.apiVersion,
    kind: live.kind,
    name: live.metadata.name ?? "",
    namespace: live.metadata.namespace,
  });
  if (outside) return outside;
  const labels = live.metadata.labels ?? {};
  if (
    labels[LABEL_APP_KIND] !== kind ||
    labels[LABEL_APP_GROUP] !== APPS_GROUP ||
    labels[LABEL_APP_NAME] !== app.metadata.name
  )
    return `it does not carry the labels the engine sets on the children of ${kind} ${app.metadata.name}`;
  const uid = labels[LABEL_APP_UID];
  if (uid !== undefined && uid !== app.metadata.uid)
    return `it belongs to another ${kind} of that name (uid ${uid})`;
  return undefined;
}

/** The Warning an ignored entry is reported with. */
export function ignoredMessage(entry: InventoryEntry, problem: string): string {
  return `ignored inventory entry ${describeEntry(entry)}: ${problem}; it was not changed or deleted, and is dropped from the inventory`;
}
