/**
 * Removing what an applier stopped applying (structured-merge-diff
 * `Updater.prune`): a field in the manager's previous apply that its new
 * configuration leaves out is removed from the merged object, unless some manager
 * (this one included, through its new configuration) still owns it. Declared
 * struct fields count as owned when anything under them is.
 */
import type { KubeObject, Schema } from "../../api/index.js";
import { FieldSet } from "./field-set.js";
import type { Managers } from "./managers.js";
import { removeItems } from "./remove-items.js";
import { toFieldSet, withNamedFieldsAsMembers } from "./to-field-set.js";

export function prune(
  merged: KubeObject,
  managers: Managers,
  lastApplied: FieldSet | undefined,
  schema: Schema | undefined,
): KubeObject {
  if (!lastApplied || lastApplied.isEmpty()) return merged;
  const named = (set: FieldSet) => withNamedFieldsAsMembers(set, schema);
  const fieldsOf = (obj: KubeObject) => named(toFieldSet(obj, schema));
  const last = named(lastApplied);
  const owned = named(
    [...managers.values()].reduce((all, m) => all.union(m.fields), FieldSet.empty()),
  );
  const mergedFields = fieldsOf(merged);

  // Remove the last applied fields, then add back what anyone owns (`addBackOwnedItems`)...
  const withoutLast = removeItems(merged, last, schema) as KubeObject;
  const unowned = mergedFields.difference(fieldsOf(withoutLast).union(owned));
  const ownedKept = removeItems(merged, unowned, schema) as KubeObject;
  // ...and what was removed only as part of something larger (`addBackDanglingItems`).
  const removed = mergedFields.difference(fieldsOf(ownedKept)).intersection(last);
  return removeItems(merged, removed, schema) as KubeObject;
}
