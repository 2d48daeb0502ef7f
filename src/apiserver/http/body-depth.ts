/**
 * The nesting limit of decoded request bodies. Everything after decoding
 * (defaulting, pruning, validation, patches, managed fields, CEL) walks objects
 * recursively, so an over-deep body is refused as a 400 before any of it runs,
 * by an iterative walk that cannot itself overflow the stack. A cycle (a YAML
 * alias inside its own anchor) has no depth, so it is refused the same way.
 */
import { BadRequestError } from "../../api/index.js";

/**
 * Go's encoding/json (kube's decoder) refuses nesting past 10000 levels; Hearth
 * cannot take that many. Its recursive code runs on Node's default stack
 * (~1 MiB), where the deepest chains (merge and strategic merge patches, server-
 * side apply, then validation and managed fields) were measured to overflow at
 * about 1900 levels. A patch can nest its value under a path as deep as the
 * stored object, so what that code sees is at most twice this limit, which
 * both bodies and (with a small allowance) stored objects keep to: 500 leaves
 * ~2x margin and is far beyond any real object (a Pod or a CRD schema nests
 * a few dozen levels).
 */
export const MAX_BODY_DEPTH = 500;

/**
 * Stored objects may nest a little deeper than a body: `metadata.managedFields`
 * repeats the object's field set five levels below its root.
 */
export const MAX_STORED_DEPTH = MAX_BODY_DEPTH + 16;

/**
 * Refuses `value` when arrays and objects nest more than `limit` levels (a
 * scalar is depth 0, `[]` depth 1). `sourceLength` is the encoded size: a body
 * of n bytes cannot nest deeper than n/2 (each level opens and closes), so a
 * short body needs no walk at all.
 */
export function assertBodyDepth(
  value: unknown,
  sourceLength = Number.POSITIVE_INFINITY,
  limit = MAX_BODY_DEPTH,
): void {
  if (sourceLength <= 2 * limit || typeof value !== "object" || value === null) return;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const depth = depths.pop()!;
    if (depth > limit) throw tooDeep(limit);
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) {
      if (typeof c === "object" && c !== null) {
        stack.push(c);
        depths.push(depth + 1);
      }
    }
  }
}

/**
 * The same limit on a JSON text about to be stored: a patch may have nested a
 * body under a deep path, and an object stored deeper than the limit would let
 * the next patch go deeper still. Costs a native `indexOf` count for the common
 * object (fewer brackets than the limit can hold); only a text with that many
 * brackets is scanned, skipping strings.
 */
export function assertEncodedDepth(json: string, limit = MAX_STORED_DEPTH): void {
  if (json.length <= 2 * limit || openings(json, limit) <= limit) return;
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: up to the next quote that is not escaped.
      for (i++; i < json.length; i++) {
        const d = json.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit)
        throw new BadRequestError(
          `exceeded max depth: the resulting object may nest at most ${limit} levels`,
        );
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
}

/** How many `{` and `[` the text has, counting no further than `stopAfter` + 1. */
function openings(text: string, stopAfter: number): number {
  let n = 0;
  for (const ch of ["{", "["]) {
    for (let at = text.indexOf(ch); at >= 0 && n <= stopAfter; at = text.indexOf(ch, at + 1)) n++;
  }
  return n;
}

function tooDeep(limit: number): BadRequestError {
  return new BadRequestError(
    `the body of the request could not be decoded: exceeded max depth (objects and arrays may nest at most ${limit} levels)`,
  );
}

/**
 * How deep YAML may nest before it is composed: the `yaml` library composes
 * recursively, overflowing near 800 levels on an empty stack, so a fraction of
 * that leaves room for the stack a request already uses.
 */
export const MAX_YAML_DEPTH = 200;

const YAML_COLLECTIONS = new Set(["block-map", "block-seq", "flow-collection"]);

/**
 * Refuses YAML whose collections nest deeper than `limit`, measured on the
 * parser's tokens (CST) by an iterative walk: nothing recursive has run yet.
 */
export function assertYamlDepth(tokens: Iterable<unknown>, limit = MAX_YAML_DEPTH): void {
  const stack: unknown[] = [];
  const depths: number[] = [];
  for (const t of tokens) {
    stack.push(t);
    depths.push(0);
  }
  while (stack.length > 0) {
    const v = stack.pop();
    let depth = depths.pop()!;
    if (typeof v !== "object" || v === null) continue;
    const type = (v as { type?: unknown }).type;
    if (typeof type === "string" && YAML_COLLECTIONS.has(type) && ++depth > limit)
      throw tooDeep(limit);
    for (const c of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof c === "object" && c !== null) {
        stack.push(c);
        depths.push(depth);
      }
    }
  }
}
