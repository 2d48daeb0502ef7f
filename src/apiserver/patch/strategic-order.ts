/**
 * Element order of merged lists in a strategic merge patch (apimachinery
 * `normalizeElementOrder`, `mergeSortedSlice`): items named by the patch (or its
 * `$setElementOrder` list) keep the patch's order, server-only items keep the live
 * order, and the two are interleaved by the live order where both are known —
 * so an item new to the list lands before the server-only items that follow it.
 */
import { isObject } from "../../api/index.js";
import { DIRECTIVE } from "./strategic-directives.js";
import { badArgType, noMergeKey, StrategicPatchError } from "./strategic-errors.js";

/** Items are compared by their merge key when `mergeKey` is set, by value otherwise. */
function identity(item: unknown, mergeKey: string): unknown {
  if (!mergeKey) return item;
  return isObject(item) ? item[mergeKey] : undefined;
}

function indexIn(list: unknown[], item: unknown, mergeKey: string): number {
  const id = identity(item, mergeKey);
  return list.findIndex((v) => identity(v, mergeKey) === id);
}

/** Splits `merged` into the items present in `by` and the rest, keeping order. */
export function partitionByPresence(
  merged: unknown[],
  by: unknown[],
  mergeKey: string,
): [present: unknown[], absent: unknown[]] {
  const present: unknown[] = [];
  const absent: unknown[] = [];
  if (mergeKey && merged.length > 0) {
    for (const [i, v] of by.entries()) {
      if (!isObject(v)) throw new StrategicPatchError(`value for key ${i} is not a map`);
    }
  }
  for (const item of merged) {
    if (mergeKey) {
      if (!isObject(item)) throw badArgType("map", item);
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
    (indexIn(by, item, mergeKey) >= 0 ? present : absent).push(item);
  }
  return [present, absent];
}

export function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
): unknown[] {
  const patchSorted = sortByOrder(patchItems, patchOrder, mergeKey);
  const serverSorted = sortByOrder(serverOnly, serverOrder, mergeKey);
  return mergeSorted(serverSorted, patchSorted, serverOrder, mergeKey);
}

/** `normalizeSliceOrder`: an insertion sort with kube's comparator; `$patch: delete` items go last. */
function sortByOrder(toSort: unknown[], order: unknown[], mergeKey: string): unknown[] {
  let items = [...toSort];
  const toDelete: unknown[] = [];
  if (mergeKey) {
    for (const item of [...items, ...order]) {
      if (!isObject(item)) throw badArgType("map", item);
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
    items = items.filter((item) => {
      const deleted = isObject(item) && item[DIRECTIVE] === "delete";
      if (deleted) toDelete.push(item);
      return !deleted;
    });
  }
  const less = (a: unknown, b: unknown): boolean => {
    const ia = indexIn(order, a, mergeKey);
    const ib = indexIn(order, b, mergeKey);
    return ia >= 0 && ib >= 0 ? ia < ib : true;
  };
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j], items[j - 1]); j--) {
      [items[j], items[j - 1]] = [items[j - 1], items[j]];
    }
  }
  return [...items, ...toDelete];
}

/** `mergeSortedSlice`: inserts the `left` (server-only) items among the `right` (patch) items. */
function mergeSorted(
  left: unknown[],
  right: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey);
      const ri = indexIn(serverOrder, right[j], mergeKey);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (!mergeKey) return left === right;
  if (!isObject(left)) throw badArgType("map", left);
  if (!isObject(right)) throw badArgType("map", right);
  if (!Object.hasOwn(left, mergeKey)) throw noMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw noMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

/** The patch list's items must appear in `$setElementOrder`, in the same relative order. */
export function validateSetElementOrder(
  patchList: unknown[],
  order: unknown[],
  mergeKey: string,
): void {
  if (order.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey
    ? patchList.filter((item) => {
        if (!isObject(item)) throw badArgType("map", item);
        return item[DIRECTIVE] !== "delete";
      })
    : patchList;
  let p = 0;
  let o = 0;
  while (p < nonDelete.length && o < order.length) {
    const item = nonDelete[p];
    if (isObject(item) && Object.hasOwn(item, DIRECTIVE)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < nonDelete.length && o >= order.length) {
    throw new StrategicPatchError(
      `The order in patch list:\n${JSON.stringify(patchList)}\n doesn't match $setElementOrder list:\n${JSON.stringify(order)}\n`,
    );
  }
}
