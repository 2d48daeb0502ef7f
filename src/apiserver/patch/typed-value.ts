/**
 * How server-side apply sees a value through its schema (structured-merge-diff's
 * atoms): a scalar leaf, a map (granular or atomic) or a list (atomic, a set of
 * primitives, or a map list keyed by some fields). Values without a schema are
 * "deduced": maps granular, lists atomic. Also the path element of a list item.
 */
import type { Schema } from "../../api/index.js";
import { isObject } from "../../api/index.js";
import { keyElement, type PathElement, valueElement } from "./field-path.js";
import {
  isAtomicMap,
  isListSchema,
  isMapSchema,
  isUntypedSchema,
  itemsSchema,
  type ListShape,
  listShape,
  resolveSchema,
} from "./schema-view.js";

export type Atom =
  | { kind: "leaf" }
  | { kind: "map"; atomic: boolean }
  | { kind: "list"; shape: ListShape; items: Schema | undefined };

// Shared, never modified: atoms are computed for every value a walk visits.
const LEAF: Atom = { kind: "leaf" };
const MAP: Atom = { kind: "map", atomic: false };
const ATOMIC_MAP: Atom = { kind: "map", atomic: true };
const ATOMIC_LIST: Atom = { kind: "list", shape: { kind: "atomic" }, items: undefined };

/** The atom a value is handled as; a value whose shape contradicts its schema is a leaf. */
export function atomOf(schema: Schema | undefined, value: unknown): Atom {
  if (value === null || typeof value !== "object") return LEAF;
  const s = resolveSchema(schema);
  if (Array.isArray(value)) {
    if (!s || !isListSchema(s)) return ATOMIC_LIST;
    return { kind: "list", shape: listShape(s), items: itemsSchema(s) };
  }
  const untyped = isUntypedSchema(s) || s?.["x-kubernetes-preserve-unknown-fields"] === true;
  const map = (untyped && (!s || !isListSchema(s))) || (s !== undefined && isMapSchema(s));
  if (!map) return LEAF;
  return isAtomicMap(s) ? ATOMIC_MAP : MAP;
}

/** A list item that cannot be placed in its list (SMD `listItemToPathElement` errors). */
export class ListItemError extends Error {}

/** The path element of an item of a set or map list. */
export function listItemElement(
  shape: ListShape,
  item: unknown,
  items: Schema | undefined,
): PathElement {
  if (shape.kind === "map") {
    if (item === null)
      throw new ListItemError("associative list with keys may not have a null element");
    if (!isObject(item)) {
      throw new ListItemError("associative list with keys may not have non-map elements");
    }
    const fields: Record<string, unknown> = {};
    const properties = resolveSchema(items)?.properties ?? {};
    for (const key of shape.keys) {
      if (Object.hasOwn(item, key) && item[key] !== undefined) fields[key] = item[key];
      else if (Object.hasOwn(properties, key) && properties[key]?.default !== undefined) {
        fields[key] = properties[key]?.default;
      }
    }
    return keyElement(fields);
  }
  if (isObject(item)) {
    throw new ListItemError("associative list without keys has an element that's a map type");
  }
  if (Array.isArray(item)) {
    throw new ListItemError("not supported: associative list with lists as elements");
  }
  if (item === null) {
    throw new ListItemError("associative list without keys has an element that's an explicit null");
  }
  return valueElement(item);
}

/** The path elements of a set or map list's items, or undefined if one cannot be placed. */
export function listElements(
  shape: ListShape,
  list: unknown[],
  items: Schema | undefined,
): PathElement[] | undefined {
  try {
    return list.map((item) => listItemElement(shape, item, items));
  } catch (e) {
    if (e instanceof ListItemError) return undefined;
    throw e;
  }
}
