/**
 * The directives of a strategic merge patch (`$patch`, `$retainKeys`,
 * `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`) and the field
 * metadata that drives merging, read from the schema the way apimachinery's
 * `PatchMetaFromOpenAPI` does.
 */
import type { Schema } from "../../api/index.js";
import { isObject } from "../../api/index.js";
import { type JsonMap, setKey } from "./json-value.js";
import { fieldSchema, itemsSchema, resolveSchema } from "./schema-view.js";
import {
  badPatchFormatForPrimitiveList,
  badPatchFormatForRetainKeys,
  badPatchFormatForSetElementOrderList,
  StrategicPatchError,
} from "./strategic-errors.js";

export const DIRECTIVE = "$patch";
export const RETAIN_KEYS = "$retainKeys";
export const SET_ELEMENT_ORDER = "$setElementOrder";
export const DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";

/** How one field merges: the non-retainKeys part of its strategy, and its merge key. */
export interface PatchMeta {
  strategy: string;
  mergeKey: string;
  /** The schema to merge the field's value (for a list: its items) with. */
  schema: Schema | undefined;
}

export function lookupPatchMeta(parent: Schema | undefined, key: string, list: boolean): PatchMeta {
  const { schema } = fieldSchema(parent, key);
  const strategies = schema?.["x-kubernetes-patch-strategy"]?.split(",") ?? [];
  return {
    strategy: otherStrategy(strategies),
    mergeKey: schema?.["x-kubernetes-patch-merge-key"] ?? "",
    schema: list ? itemsSchema(schema) : resolveSchema(schema),
  };
}

/** `extractRetainKeysPatchStrategy`: the strategy besides `retainKeys`. */
function otherStrategy(strategies: string[]): string {
  if (strategies.length === 0) return "";
  if (strategies.length === 1) return strategies[0] === "retainKeys" ? "" : (strategies[0] ?? "");
  if (strategies.length === 2) {
    if (strategies[0] === "retainKeys") return strategies[1] ?? "";
    if (strategies[1] === "retainKeys") return strategies[0] ?? "";
  }
  throw new StrategicPatchError(`unexpected patch strategy: [${strategies.join(" ")}]`);
}

/** The list name after `$setElementOrder/` or `$deleteFromPrimitiveList/`. */
export function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf("/");
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === DELETE_FROM_PRIMITIVE_LIST
      ? badPatchFormatForPrimitiveList()
      : badPatchFormatForSetElementOrderList();
  }
  return key.slice(slash + 1);
}

/**
 * `$retainKeys`: drops from `original` every key the list does not name; every
 * key the patch sets must be named. Removes the directive from `patch`.
 */
export function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw badPatchFormatForRetainKeys();
  const retained = new Set<unknown>(list);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    if (key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!retained.has(key)) throw badPatchFormatForRetainKeys();
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(key)) delete original[key];
  }
}

function isDirectiveKey(key: string): boolean {
  return (
    key === RETAIN_KEYS ||
    key.startsWith(`${SET_ELEMENT_ORDER}/`) ||
    key.startsWith(`${DELETE_FROM_PRIMITIVE_LIST}/`)
  );
}

/**
 * A patch value about to be stored as is: maps carrying `$patch` vanish (kube's
 * `removeDirectives`), and so do the parallel-list keys, which kube's typed
 * decoding would drop. Returns `undefined` when the value itself vanishes.
 */
export function withoutDirectives(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(withoutDirectives).filter((v) => v !== undefined);
  }
  if (!isObject(value)) return value;
  if (Object.hasOwn(value, DIRECTIVE)) return undefined;
  const out: JsonMap = {};
  for (const [key, v] of Object.entries(value)) {
    if (isDirectiveKey(key)) continue;
    const kept = withoutDirectives(v);
    if (kept !== undefined) setKey(out, key, kept);
  }
  return out;
}

/** `discardNullValuesFromPatch`: a value added from the patch keeps no null map entries. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  const out: JsonMap = {};
  for (const [key, v] of Object.entries(value)) {
    if (v !== null) setKey(out, key, withoutNulls(v));
  }
  return out;
}

/** A patch value stored where the original has nothing to merge with. */
export function patchValueAsIs(value: unknown): unknown {
  return withoutDirectives(withoutNulls(value));
}
