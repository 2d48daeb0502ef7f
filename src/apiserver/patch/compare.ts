/**
 * What a write changed, field by field (structured-merge-diff `Compare`): paths
 * added, modified and removed between an old and a new object. A map or list that
 * appears or disappears is itself added or removed, along with what it holds;
 * atomic values and values whose shape changed compare as single leaves.
 */
import type { Schema } from "../../api/schema.js";
import { isObject } from "../../api/types.js";
import { fieldElement, type PathElement } from "./field-path.js";
import { FieldSet } from "./field-set.js";
import { getKey, jsonEqual } from "./json-value.js";
import { fieldSchema } from "./schema-view.js";
import { atomOf, listElements } from "./typed-value.js";

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compareObjects(
  before: unknown,
  after: unknown,
  schema: Schema | undefined,
): Comparison {
  const c = { added: FieldSet.empty(), modified: FieldSet.empty(), removed: FieldSet.empty() };
  compareAt(before, after, schema, [], c);
  return c;
}

const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (Array.isArray(v) && v.length === 0) ||
  (isObject(v) && Object.keys(v).length === 0);

/** `undefined` is "absent"; `null` is a value, but counts as empty next to a map or list. */
function compareAt(
  lhs: unknown,
  rhs: unknown,
  schema: Schema | undefined,
  path: PathElement[],
  c: Comparison,
): void {
  if (lhs === undefined && rhs === undefined) return;
  const sample = rhs === undefined || rhs === null ? lhs : rhs;
  const atom = atomOf(schema, sample);
  const other = sample === rhs ? lhs : rhs;
  const sameShape =
    other === undefined ||
    other === null ||
    (atom.kind === "map" && isObject(other)) ||
    (atom.kind === "list" && Array.isArray(other));
  const container = atom.kind === "map" ? !atom.atomic : atom.kind === "list";
  const descended =
    container &&
    sameShape &&
    !(isEmpty(lhs) && isEmpty(rhs)) &&
    descend(lhs, rhs, atom, schema, path, c);
  if (!descended) {
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
    else if (!jsonEqual(lhs, rhs)) c.modified.insert(path);
    return;
  }
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
}

/** Compares children; false when the value is to be compared as a leaf instead. */
function descend(
  lhs: unknown,
  rhs: unknown,
  atom: ReturnType<typeof atomOf>,
  schema: Schema | undefined,
  path: PathElement[],
  c: Comparison,
): boolean {
  if (atom.kind === "map") {
    const l = isObject(lhs) ? lhs : {};
    const r = isObject(rhs) ? rhs : {};
    const keys = new Set([...Object.keys(l), ...Object.keys(r)]);
    for (const key of keys) {
      const field = fieldSchema(schema, key);
      compareAt(getKey(l, key), getKey(r, key), field.schema, [...path, fieldElement(key)], c);
    }
    return true;
  }
  if (atom.kind !== "list" || atom.shape.kind === "atomic") return false;
  const l = Array.isArray(lhs) ? lhs : [];
  const r = Array.isArray(rhs) ? rhs : [];
  const lElements = listElements(atom.shape, l, atom.items);
  const rElements = listElements(atom.shape, r, atom.items);
  if (!lElements || !rElements) return false;
  const group = (elements: PathElement[], items: unknown[]) => {
    const byElement = new Map<PathElement, unknown[]>();
    for (const [i, pe] of elements.entries()) {
      byElement.set(pe, [...(byElement.get(pe) ?? []), items[i]]);
    }
    return byElement;
  };
  const lValues = group(lElements, l);
  const rValues = group(rElements, r);
  for (const pe of new Set([...lElements, ...rElements])) {
    const ls = lValues.get(pe) ?? [];
    const rs = rValues.get(pe) ?? [];
    const itemPath = [...path, pe];
    if (ls.length <= 1 && rs.length <= 1) {
      compareAt(ls[0], rs[0], atom.items, itemPath, c);
    } else if (ls.length >= 2 && rs.length >= 2) {
      if (!jsonEqual(ls, rs)) c.modified.insert(itemPath);
    } else if (ls.length >= 2) {
      if (rs.length > 0) compareAt(undefined, rs[0], atom.items, itemPath, c);
      c.removed.insert(itemPath);
    } else {
      if (ls.length > 0) compareAt(ls[0], undefined, atom.items, itemPath, c);
      c.added.insert(itemPath);
    }
  }
  return true;
}
