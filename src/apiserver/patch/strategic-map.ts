/**
 * Merging a map in a strategic merge patch (apimachinery `mergeMap`): `$patch`
 * on the map, `$retainKeys`, `$setElementOrder/<list>` (merging that list and
 * fixing its order), `$deleteFromPrimitiveList/<list>`, `null` deleting a key, and
 * per-field recursion driven by the schema's patch strategy. Works in place on
 * copies the caller owns.
 */
import type { Schema } from "../../api/index.js";
import { isObject } from "../../api/index.js";
import { getKey, hasKey, type JsonMap, jsonKind, setKey } from "./json-value.js";
import {
  applyRetainKeys,
  DELETE_FROM_PRIMITIVE_LIST,
  DIRECTIVE,
  extractKey,
  lookupPatchMeta,
  patchValueAsIs,
  SET_ELEMENT_ORDER,
} from "./strategic-directives.js";
import { badArgType, badPatchType } from "./strategic-errors.js";
import { mergeList } from "./strategic-list.js";
import {
  normalizeElementOrder,
  partitionByPresence,
  validateSetElementOrder,
} from "./strategic-order.js";

export function mergeMap(original: JsonMap, patch: JsonMap, schema: Schema | undefined): JsonMap {
  if (Object.hasOwn(patch, DIRECTIVE)) return mapDirective(patch[DIRECTIVE], patch);
  applyRetainKeys(original, patch);
  applySetElementOrders(original, patch, schema);
  for (const [patchKey, patchValue] of Object.entries(patch)) {
    const deleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST);
    const key = deleteList ? extractKey(patchKey, DELETE_FROM_PRIMITIVE_LIST) : patchKey;
    if (patchValue === null) {
      delete original[key];
      continue;
    }
    const value = getKey(original, key);
    if (!hasKey(original, key) || jsonKind(value) !== jsonKind(patchValue)) {
      if (!deleteList) storeAsIs(original, key, patchValue);
      continue;
    }
    if (isObject(value) && isObject(patchValue)) {
      const meta = lookupPatchMeta(schema, key, false);
      const merged =
        meta.strategy === "replace"
          ? patchValueAsIs(patchValue)
          : mergeMap(value, patchValue, meta.schema);
      setKey(original, key, merged);
    } else if (Array.isArray(value) && Array.isArray(patchValue)) {
      setKey(original, key, mergeListField(value, patchValue, schema, key, deleteList));
    } else {
      storeAsIs(original, key, patchValue);
    }
  }
  return original;
}

/** `$patch` on a map: `replace` keeps only the patch, `delete` empties the map. */
function mapDirective(directive: unknown, patch: JsonMap): JsonMap {
  if (directive === "replace") {
    const { [DIRECTIVE]: _directive, ...rest } = patch;
    return patchValueAsIs(rest) as JsonMap;
  }
  if (directive === "delete") return {};
  throw badPatchType(directive, patch);
}

function storeAsIs(original: JsonMap, key: string, patchValue: unknown): void {
  const value = patchValueAsIs(patchValue);
  if (value === undefined) delete original[key];
  else setKey(original, key, value);
}

/** `mergeSliceHandler`: lists merge only with strategy `merge` (or as a deletion list). */
function mergeListField(
  original: unknown[],
  patch: unknown[],
  parent: Schema | undefined,
  key: string,
  deleteList: boolean,
): unknown[] {
  const meta = lookupPatchMeta(parent, key, true);
  if (meta.strategy !== "merge" && !deleteList) return patch;
  return mergeList(original, patch, {
    mergeKey: meta.mergeKey,
    schema: meta.schema,
    deleteList,
    mergeItem: mergeMap,
  });
}

/**
 * `mergePatchIntoOriginal`: merges each list named by a `$setElementOrder/<list>`
 * directive and orders it by that directive, patch items first in its order.
 */
function applySetElementOrders(
  original: JsonMap,
  patch: JsonMap,
  schema: Schema | undefined,
): void {
  for (const directiveKey of Object.keys(patch)) {
    if (!directiveKey.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[directiveKey];
    delete patch[directiveKey];
    if (!Array.isArray(order)) throw badArgType("slice", order);
    const key = extractKey(directiveKey, SET_ELEMENT_ORDER);
    const inOriginal = hasKey(original, key);
    const inPatch = hasKey(patch, key);
    const originalList = inOriginal ? getKey(original, key) : [];
    const patchList = inPatch ? getKey(patch, key) : [];
    if (!Array.isArray(originalList)) throw badArgType("slice", originalList);
    if (!Array.isArray(patchList)) throw badArgType("slice", patchList);
    const meta = lookupPatchMeta(schema, key, true);
    validateSetElementOrder(patchList, order, meta.mergeKey);
    let merged: unknown[];
    if (inOriginal && !inPatch) merged = originalList;
    else if (!inOriginal && inPatch) merged = patchValueAsIs(patchList) as unknown[];
    else if (inOriginal && inPatch)
      merged = mergeListField(originalList, patchList, schema, key, false);
    else continue;
    delete patch[key];
    // Nothing to order (kube fails here, on its element-type check).
    if (originalList.length === 0 && patchList.length === 0) {
      setKey(original, key, merged);
      continue;
    }
    const [patchItems, serverOnly] = partitionByPresence(merged, order, meta.mergeKey);
    setKey(
      original,
      key,
      normalizeElementOrder(patchItems, serverOnly, order, originalList, meta.mergeKey),
    );
  }
}
