/**
 * The functions kube adds to CEL for CRD rules, beyond the standard library:
 * the strings extension, the lists library (`isSorted`, `sum`, `min`, `max`,
 * `indexOf`, `lastIndexOf`), regex `find`/`findAll`, and the methods of the
 * optional `oldSelf` of rules with `optionalOldSelf` (`hasValue`, `value`,
 * `orValue`).
 */
import {
  type CelFunc,
  type CelInput,
  type CelList,
  CelScalar,
  type CelValue,
  celList,
  celMethod,
  isCelList,
  listType,
} from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";

const optionals = new WeakSet<object>();

/** An optional value, as CEL's `optional.of(v)` / `optional.none()`. */
export function celOptional(value: CelInput | undefined): CelList {
  const list = celList(value === undefined ? [] : [value]);
  optionals.add(list);
  return list;
}

function asOptional(target: CelValue): CelList {
  if (!isCelList(target) || !optionals.has(target))
    throw new Error("no such overload: not an optional value");
  return target;
}

type Ordered = bigint | number | string;

function isOrdered(v: CelValue | undefined): v is Ordered {
  return typeof v === "bigint" || typeof v === "number" || typeof v === "string";
}

function ordered(list: CelList): Ordered[] {
  const out: Ordered[] = [];
  for (const v of list) {
    if (!isOrdered(v)) throw new Error("no such overload: list elements are not comparable");
    out.push(v);
  }
  return out;
}

function extreme(list: CelList, pick: (a: Ordered, b: Ordered) => boolean): Ordered {
  const items = ordered(list);
  if (items.length === 0) throw new Error("min/max of an empty list");
  return items.reduce((best, v) => (pick(v, best) ? v : best));
}

function position(list: CelList, wanted: CelValue, last: boolean): bigint {
  const items = [...list];
  const found = (v: CelValue) => v === wanted || String(v) === String(wanted);
  const i = last ? items.findLastIndex(found) : items.findIndex(found);
  return BigInt(i);
}

const LIST = listType(CelScalar.DYN);

const lists: CelFunc[] = [
  celMethod("isSorted", LIST, [], CelScalar.BOOL, function () {
    const items = ordered(this);
    return items.every((v, i) => i === 0 || items[i - 1]! <= v);
  }),
  celMethod("sum", LIST, [], CelScalar.DYN, function () {
    const items = ordered(this);
    if (items.every((v) => typeof v === "bigint"))
      return items.reduce((a, b) => (a as bigint) + (b as bigint), 0n);
    return items.reduce((a: number, b) => a + Number(b), 0);
  }),
  celMethod("min", LIST, [], CelScalar.DYN, function () {
    return extreme(this, (a, b) => a < b);
  }),
  celMethod("max", LIST, [], CelScalar.DYN, function () {
    return extreme(this, (a, b) => a > b);
  }),
  celMethod("indexOf", LIST, [CelScalar.DYN], CelScalar.INT, function (v) {
    return position(this, v, false);
  }),
  celMethod("lastIndexOf", LIST, [CelScalar.DYN], CelScalar.INT, function (v) {
    return position(this, v, true);
  }),
];

const regex: CelFunc[] = [
  celMethod("find", CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, function (re) {
    return new RegExp(re).exec(this)?.[0] ?? "";
  }),
  celMethod("findAll", CelScalar.STRING, [CelScalar.STRING], LIST, function (re) {
    return celList([...this.matchAll(new RegExp(re, "g"))].map((m) => m[0]));
  }),
];

const optional: CelFunc[] = [
  celMethod("hasValue", CelScalar.DYN, [], CelScalar.BOOL, function () {
    return asOptional(this).size > 0;
  }),
  celMethod("value", CelScalar.DYN, [], CelScalar.DYN, function () {
    const o = asOptional(this);
    if (o.size === 0) throw new Error("optional.none() dereference");
    return o.get(0)!;
  }),
  celMethod("orValue", CelScalar.DYN, [CelScalar.DYN], CelScalar.DYN, function (fallback) {
    const o = asOptional(this);
    return o.size === 0 ? fallback : o.get(0)!;
  }),
];

/** Every function kube's CRD rule environment adds to the standard library. */
export const KUBE_LIBRARY: CelFunc[] = [...strings, ...lists, ...regex, ...optional];
