/**
 * The set of fields an object sets (structured-merge-diff `ToFieldSet`): every
 * leaf, every item of a set or map list, and map entries that are not declared
 * fields. Atomic lists and maps are single leaves. `computeFieldSet` is the form
 * managedFields record: without the fields the server owns (apiVersion, kind,
 * metadata.name, uid, resourceVersion, ...; apimachinery `stripmeta.go`).
 */
import type { Schema } from "../../api/index.js";
import { type FieldsV1, isObject, type KubeObject } from "../../api/index.js";
import { type FieldPath, fieldElement, formatPath, type PathElement } from "./field-path.js";
import { FieldSet } from "./field-set.js";
import { fieldSchema, itemsSchema, resolveSchema } from "./schema-view.js";
import { atomOf, ListItemError, listItemElement } from "./typed-value.js";

/** A value the schema cannot hold, found while reading an applied configuration. */
export class TypedValueError extends Error {
  constructor(path: FieldPath, message: string) {
    super(path.length > 0 ? `${formatPath(path)}: ${message}` : message);
  }
}

/**
 * The field set of `value`. `strict` (for an applied configuration) rejects list
 * items that cannot be keyed and duplicate keys; otherwise (live objects) such a
 * list counts as one leaf and duplicates as one item.
 */
export function toFieldSet(value: unknown, schema: Schema | undefined, strict = false): FieldSet {
  const set = FieldSet.empty();
  walk(value, schema, [], set, strict);
  return set;
}

function walk(
  value: unknown,
  schema: Schema | undefined,
  path: PathElement[],
  set: FieldSet,
  strict: boolean,
): void {
  const atom = atomOf(schema, value);
  if (atom.kind === "leaf" || (atom.kind !== "list" && atom.atomic)) {
    set.insert(path);
    return;
  }
  if (atom.kind === "map") {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      if (child === undefined) continue;
      const field = fieldSchema(schema, key);
      const childPath = [...path, fieldElement(key)];
      walk(child, field.schema, childPath, set, strict);
      const empty = child === null || (isObject(child) && Object.keys(child).length === 0);
      if (empty || !field.named) set.insert(childPath);
    }
    return;
  }
  if (atom.shape.kind === "atomic") {
    set.insert(path);
    return;
  }
  const list = value as unknown[];
  const elements: PathElement[] = [];
  for (const [i, item] of list.entries()) {
    try {
      elements.push(listItemElement(atom.shape, item, atom.items));
    } catch (e) {
      if (!(e instanceof ListItemError)) throw e;
      if (strict) throw new TypedValueError(path, `element ${i}: ${e.message}`);
      set.insert(path);
      return;
    }
  }
  const seen = new Set<PathElement>();
  const duplicates = new Set<PathElement>();
  for (const pe of elements) {
    if (!seen.has(pe)) seen.add(pe);
    else if (strict)
      throw new TypedValueError(path, `duplicate entries for key ${formatPath([pe])}`);
    else duplicates.add(pe);
  }
  for (const pe of duplicates) set.insert([...path, pe]);
  for (const [i, pe] of elements.entries()) {
    if (duplicates.has(pe)) continue;
    walk(list[i], atom.items, [...path, pe], set, strict);
    set.insert([...path, pe]);
  }
}

/**
 * SMD `EnsureNamedFieldsAreMembers`: adds every declared field (a struct field,
 * not a map key) that has a descendant in the set.
 */
export function withNamedFieldsAsMembers(set: FieldSet, schema: Schema | undefined): FieldSet {
  const out = FieldSet.of(set.paths());
  for (const path of set.paths()) {
    let current = resolveSchema(schema);
    for (let i = 0; i < path.length - 1; i++) {
      const pe = path[i] ?? "";
      if (pe.startsWith("f:")) {
        const field = fieldSchema(current, pe.slice(2));
        if (field.named) out.insert(path.slice(0, i + 1));
        current = field.schema;
      } else {
        current = itemsSchema(current);
      }
    }
  }
  return out;
}

/** Paths the server owns, never recorded in managedFields (built once; never modified). */
const SERVER_OWNED = FieldSet.of([
  ["f:apiVersion"],
  ["f:kind"],
  ["f:metadata"],
  ...[
    "name",
    "namespace",
    "creationTimestamp",
    "selfLink",
    "uid",
    "clusterName",
    "generation",
    "managedFields",
    "resourceVersion",
  ].map((field) => ["f:metadata", fieldElement(field)]),
]);

export function withoutServerOwned(set: FieldSet): FieldSet {
  return set.difference(SERVER_OWNED);
}

/** The FieldsV1 set of an object, as a managedFields entry of an applier would record it. */
export function computeFieldSet(obj: KubeObject, schema: Schema | undefined): FieldsV1 {
  return withoutServerOwned(toFieldSet(withoutManagedFields(obj), schema)).toFieldsV1();
}

/** A shallow copy of `obj` without `metadata.managedFields`, which no field set covers. */
export function withoutManagedFields(obj: KubeObject): KubeObject {
  if (!isObject(obj.metadata) || !Object.hasOwn(obj.metadata, "managedFields")) return obj;
  const { managedFields: _managed, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
