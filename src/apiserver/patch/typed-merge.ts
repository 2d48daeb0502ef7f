/**
 * Merging an applied configuration into the live object (structured-merge-diff
 * `TypedValue.Merge`): granular maps merge key by key, set and map lists merge
 * item by item, and everything else (scalars, atomic lists and maps) takes the
 * applied value. Merged lists keep the live order for items the configuration
 * does not mention and the configuration's order for the items it does.
 */
import type { Schema } from "../../api/index.js";
import { isObject } from "../../api/index.js";
import type { PathElement } from "./field-path.js";
import { getKey, type JsonMap, setKey } from "./json-value.js";
import { fieldSchema } from "./schema-view.js";
import { atomOf, listElements } from "./typed-value.js";

export function mergeTyped(live: unknown, applied: unknown, schema: Schema | undefined): unknown {
  if (applied === undefined) return live;
  if (live === undefined) return applied;
  // A null in the configuration does not erase a live map or list.
  if (applied === null) return isObject(live) || Array.isArray(live) ? live : null;
  const atom = atomOf(schema, applied);
  if (atom.kind === "map" && !atom.atomic && isObject(live) && isObject(applied)) {
    if (Object.keys(live).length === 0 && Object.keys(applied).length === 0) return applied;
    const out: JsonMap = { ...live };
    for (const [key, value] of Object.entries(applied)) {
      setKey(out, key, mergeTyped(getKey(live, key), value, fieldSchema(schema, key).schema));
    }
    return out;
  }
  if (atom.kind === "list" && atom.shape.kind !== "atomic" && Array.isArray(live)) {
    const list = applied as unknown[];
    if (live.length === 0 && list.length === 0) return applied;
    const lElements = listElements(atom.shape, live, atom.items);
    const rElements = listElements(atom.shape, list, atom.items);
    if (!lElements || !rElements) return applied;
    const merge = (l: unknown, r: unknown) => mergeTyped(l, r, atom.items);
    return mergeListItems(live, lElements, list, rElements, merge);
  }
  return applied;
}

/** SMD `visitListItems` of the merging walker, which decides the merged order. */
function mergeListItems(
  lhs: unknown[],
  lElements: PathElement[],
  rhs: unknown[],
  rElements: PathElement[],
  merge: (l: unknown, r: unknown) => unknown,
): unknown[] {
  const observedR = new Map(rElements.map((pe, i) => [pe, rhs[i]]));
  const observedL = new Map<PathElement, unknown>();
  for (const [i, pe] of lElements.entries()) {
    // A duplicated live item merges as null (the configuration then replaces it).
    observedL.set(pe, observedL.has(pe) ? null : lhs[i]);
  }
  const shared = rElements.filter((pe) => observedL.has(pe));
  let nextShared = shared.shift();
  const mergedR = new Set<PathElement>();
  const out: unknown[] = [];
  let l = 0;
  let r = 0;
  while (l < lElements.length || r < rElements.length) {
    if (l < lElements.length && r < rElements.length) {
      const pe = lElements[l] ?? "";
      if (pe === rElements[r]) {
        mergedR.add(pe);
        out.push(merge(observedL.get(pe), observedR.get(pe)));
        l++;
        r++;
        nextShared = shared.shift();
        continue;
      }
      if (observedR.has(pe) && nextShared !== undefined && nextShared !== pe) {
        l++;
        continue;
      }
    }
    if (l < lElements.length) {
      const pe = lElements[l] ?? "";
      if (!observedR.has(pe)) {
        out.push(lhs[l]);
        l++;
        continue;
      }
      if (mergedR.has(pe)) l++;
    }
    if (r < rElements.length) {
      const pe = rElements[r] ?? "";
      mergedR.add(pe);
      out.push(merge(observedL.get(pe), observedR.get(pe)));
      r++;
      if (nextShared !== undefined && nextShared === pe) nextShared = shared.shift();
    }
  }
  return out;
}
