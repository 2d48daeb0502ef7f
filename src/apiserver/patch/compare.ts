/**
 * What a write changed, field by field (structured-merge-diff `Compare`): paths
 * added, modified and removed between an old and a new object. A map or list that
 * appears or disappears is itself added or removed, along with what it holds;
 * atomic values and values whose shape changed compare as single leaves.
 */
import type { Schema } from "../../api/index.js";
import { isObject } from "../../api/index.js";
import { fieldElement, type PathElement } from "./field-path.js";
import { FieldSet } from "./field-set.js";
import { getKey, jsonEqual } from "./json-value.js";
import { fieldSchema } from "./schema-view.js";
import { type Atom, atomOf, listElements } from "./typed-value.js";

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

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (!isObject(v)) return false;
  for (const key in v) if (Object.hasOwn(v, key)) return false;
  return true;
}

/**
 * `undefined` is "absent"; `null` is a value, but counts as empty next to a map or
 * list. `path` is one stack for the whole walk: pushed and popped around each
 * child, never kept (`FieldSet.insert` only reads it).
 */
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
  atom: Atom,
  schema: Schema | undefined,
  path: PathElement[],
  c: Comparison,
): boolean {
  if (atom.kind === "map") {
    const l = isObject(lhs) ? lhs : undefined;
    const r = isObject(rhs) ? rhs : undefined;
    const field = (key: string) => {
      path.push(fieldElement(key));
      const before = l && getKey(l, key);
      const after = r && getKey(r, key);
      compareAt(before, after, fieldSchema(schema, key).schema, path, c);
      path.pop();
    };
    if (l) for (const key of Object.keys(l)) field(key);
    if (r) for (const key of Object.keys(r)) if (!l || !Object.hasOwn(l, key)) field(key);
    return true;
  }
  if (atom.kind !== "list" || atom.shape.kind === "atomic") return false;
  const l = Array.isArray(lhs) ? lhs : [];
  const r = Array.isArray(rhs) ? rhs : [];
  const lElements = listElements(atom.shape, l, atom.items);
  const rElements = listElements(atom.shape, r, atom.items);
  if (!lElements || !rElements) return false;
  const lValues = groupByElement(lElements, l);
  const rValues = groupByElement(rElements, r);
  const item = (pe: PathElement) => {
    path.push(pe);
    compareItems(lValues.get(pe) ?? [], rValues.get(pe) ?? [], atom.items, path, c);
    path.pop();
  };
  for (const pe of lValues.keys()) item(pe);
  for (const pe of rValues.keys()) if (!lValues.has(pe)) item(pe);
  return true;
}

/** A list's items by path element; several items under one element are duplicates. */
function groupByElement(elements: PathElement[], items: unknown[]): Map<PathElement, unknown[]> {
  const byElement = new Map<PathElement, unknown[]>();
  for (let i = 0; i < elements.length; i++) {
    const pe = elements[i]!;
    const group = byElement.get(pe);
    if (group) group.push(items[i]);
    else byElement.set(pe, [items[i]]);
  }
  return byElement;
}

/** The items of one element on each side: single items compare as values, duplicates as a whole. */
function compareItems(
  ls: unknown[],
  rs: unknown[],
  items: Schema | undefined,
  path: PathElement[],
  c: Comparison,
): void {
  if (ls.length <= 1 && rs.length <= 1) {
    compareAt(ls[0], rs[0], items, path, c);
  } else if (ls.length >= 2 && rs.length >= 2) {
    if (!jsonEqual(ls, rs)) c.modified.insert(path);
  } else if (ls.length >= 2) {
    if (rs.length > 0) compareAt(undefined, rs[0], items, path, c);
    c.removed.insert(path);
  } else {
    if (ls.length > 0) compareAt(ls[0], undefined, items, path, c);
    c.added.insert(path);
  }
}
