/**
 * The ownership bookkeeping shared by apply and update (structured-merge-diff
 * `Updater.update`/`Update`): a write takes the fields it changed away from the
 * other managers — or, for an apply without force, fails on them — and every
 * manager loses the fields the write removed.
 */
import type { KubeObject, Schema } from "../../api/index.js";
import { applyConflictError, type FieldConflict } from "./apply-conflict.js";
import { type Comparison, compareObjects } from "./compare.js";
import type { FieldSet } from "./field-set.js";
import type { Manager, Managers } from "./managers.js";
import { withoutServerOwned } from "./to-field-set.js";

/** Updates the other managers of `managers` for a write by `writer`; throws on conflicts unless `force`. */
export function transferOwnership(
  before: KubeObject,
  after: KubeObject,
  schema: Schema | undefined,
  managers: Managers,
  writer: string,
  force: boolean,
): Comparison {
  const comparison = compareObjects(before, after, schema);
  // No other manager (a create, a first apply): no field changes hands, none can conflict.
  if (managers.size === 0 || (managers.size === 1 && managers.has(writer))) return comparison;
  const changed = comparison.modified.union(comparison.added);
  const conflicts: FieldConflict[] = [];
  const taken = new Map<string, FieldSet>();
  for (const [id, manager] of managers) {
    if (id === writer) continue;
    const lost = manager.fields.intersection(changed);
    if (lost.isEmpty()) continue;
    taken.set(id, lost);
    for (const path of lost.paths()) conflicts.push({ id, manager, path });
  }
  if (!force && conflicts.length > 0) throw applyConflictError(conflicts);
  for (const [id, manager] of managers) {
    if (id === writer) continue;
    const lost = taken.get(id);
    let fields = lost ? manager.fields.difference(lost) : manager.fields;
    if (!comparison.removed.isEmpty()) fields = fields.difference(comparison.removed);
    if (fields.isEmpty()) managers.delete(id);
    else managers.set(id, { ...manager, fields });
  }
  return comparison;
}

/**
 * Records a non-apply write (`managedFieldsUpdater` over `Updater.Update`): the
 * writer's entry gains what the write added or modified, stamped `now`; an entry
 * whose write changed nothing it can own keeps its old time.
 */
export function recordUpdate(
  before: KubeObject,
  after: KubeObject,
  schema: Schema | undefined,
  managers: Managers,
  writer: Omit<Manager, "fields" | "time">,
  writerId: string,
  now: string,
): void {
  // The operation is compared as a manager of its own, so the writer's previous entry loses what it changed too.
  const comparison = transferOwnership(
    before,
    after,
    schema,
    managers,
    "\u0000current-operation",
    true,
  );
  const fields = withoutServerOwned(comparison.modified.union(comparison.added));
  if (fields.isEmpty()) return;
  const previous = managers.get(writerId);
  const entry: Manager = {
    manager: writer.manager,
    operation: writer.operation,
    apiVersion: writer.apiVersion,
    time: now,
    fields: previous ? fields.union(previous.fields) : fields,
  };
  if (writer.subresource) entry.subresource = writer.subresource;
  managers.set(writerId, entry);
}
