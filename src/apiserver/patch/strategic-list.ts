/**
 * Merging a list field in a strategic merge patch (apimachinery `mergeSlice`):
 * primitives merge as a set, maps merge by their merge key, items carrying
 * `$patch: delete` remove the matching item, one carrying `$patch: replace`
 * replaces the list, and `$deleteFromPrimitiveList` removes primitives.
 */
import type { Schema } from "../../api/index.js";
import { isObject } from "../../api/index.js";
import { goFormat, type JsonKind, type JsonMap, jsonKind } from "./json-value.js";
import { DIRECTIVE, patchValueAsIs } from "./strategic-directives.js";
import {
  badPatchType,
  noListOfLists,
  noMergeKey,
  StrategicPatchError,
} from "./strategic-errors.js";
import { normalizeElementOrder, partitionByPresence } from "./strategic-order.js";

/** Merges two maps of a list's items (`mergeMap`), passed in to keep the modules acyclic. */
export type MergeItem = (original: JsonMap, patch: JsonMap, schema: Schema | undefined) => JsonMap;

export interface ListMerge {
  mergeKey: string;
  /** The items' schema. */
  schema: Schema | undefined;
  /** The patch is a `$deleteFromPrimitiveList` list. */
  deleteList: boolean;
  mergeItem: MergeItem;
}

export function mergeList(original: unknown[], patch: unknown[], m: ListMerge): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind(original, patch);
  let base = original;
  let items = patch;
  let merged: unknown[];
  if (kind !== "object") {
    if (m.deleteList) return original.filter((v) => !patch.includes(v));
    merged = [...new Set([...original, ...patch])];
  } else {
    if (!m.mergeKey) {
      const name = m.schema?.type ?? "Struct";
      throw new StrategicPatchError(`cannot merge lists without merge key for ${name}`);
    }
    [base, items] = applySpecialElements(original, patch as JsonMap[], m.mergeKey);
    merged = mergeByKey(base as JsonMap[], items as JsonMap[], m);
  }
  const [patchItems, serverOnly] = partitionByPresence(merged, items, m.mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, items, base, m.mergeKey);
}

/** `sliceElementType`: every item has one JSON kind, and no item is a list. */
function elementKind(...lists: unknown[][]): JsonKind {
  let kind: JsonKind | undefined;
  for (const item of lists.flat()) {
    const k = jsonKind(item);
    if (kind === undefined) {
      if (k === "array") throw noListOfLists();
      kind = k;
    } else if (k !== kind) {
      throw new StrategicPatchError(
        `list element types are not identical: [${lists.map(goFormat).join(" ")}]`,
      );
    }
  }
  if (kind === undefined) throw new StrategicPatchError("no elements in any of the given slices");
  return kind;
}

/** Handles `$patch` items: deletes matching originals, or replaces the list. */
function applySpecialElements(
  original: unknown[],
  patch: JsonMap[],
  mergeKey: string,
): [unknown[], JsonMap[]] {
  let base = original;
  const plain: JsonMap[] = [];
  let replace = false;
  for (const item of patch) {
    if (!Object.hasOwn(item, DIRECTIVE)) {
      plain.push(item);
      continue;
    }
    switch (item[DIRECTIVE]) {
      case "delete": {
        if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
        const value = item[mergeKey];
        base = base.filter((v, i) => {
          if (!isObject(v)) throw new StrategicPatchError(`value for key ${i} is not a map`);
          return v[mergeKey] !== value;
        });
        break;
      }
      case "replace":
        replace = true;
        break;
      case "merge":
        throw new StrategicPatchError("merging lists cannot yet be specified in the patch");
      default:
        throw badPatchType(item[DIRECTIVE], item);
    }
  }
  return replace ? [plain.map((v) => patchValueAsIs(v)), []] : [base, plain];
}

/** Merges each patch item into the original item with the same key, or appends it. */
function mergeByKey(original: JsonMap[], patch: JsonMap[], m: ListMerge): unknown[] {
  const out: unknown[] = [...original];
  for (const item of patch) {
    if (!Object.hasOwn(item, m.mergeKey)) throw noMergeKey(item, m.mergeKey);
    const value = item[m.mergeKey];
    let found = -1;
    for (const [i, v] of out.entries()) {
      if (!isObject(v)) throw new StrategicPatchError(`value for key ${i} is not a map`);
      if (found < 0 && Object.hasOwn(v, m.mergeKey) && v[m.mergeKey] === value) found = i;
    }
    if (found >= 0) out[found] = m.mergeItem(out[found] as JsonMap, item, m.schema);
    else out.push(patchValueAsIs(item));
  }
  return out;
}
