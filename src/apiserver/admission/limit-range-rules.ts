/**
 * What kube's LimitRanger does with one LimitRange, as pure functions:
 * `defaultPodResources` fills each container's missing limits from the
 * Container item's `default` and missing requests from its `defaultRequest`,
 * recording what it set in the `kubernetes.io/limit-ranger` annotation;
 * `podLimitErrors` and `claimLimitErrors` check min, max and
 * maxLimitRequestRatio per Container, per Pod (the containers' sum) and per
 * PersistentVolumeClaim (its storage request), with kube's messages.
 */
import type { Container, PersistentVolumeClaim, Pod } from "../../api/index.js";
import {
  canonicalQuantity,
  podTotals,
  type QuantityList,
  quantityMilliValue,
} from "../../api/index.js";
import type { LimitRange, LimitRangeItem } from "../resources/quota-validation.js";

export const LIMIT_RANGER_ANNOTATION = "kubernetes.io/limit-ranger";

const items = (range: LimitRange, type: string): LimitRangeItem[] =>
  (range.spec?.limits ?? []).filter((i) => i.type === type);

/** Fills `to` from `from` where `to` lacks a name; returns the names filled, sorted. */
function fill(to: QuantityList, from: QuantityList): string[] {
  const set = Object.keys(from).filter((k) => to[k] === undefined);
  for (const k of set) to[k] = from[k]!;
  return set.sort();
}

/**
 * kube's `PodMutateLimitFunc`. The pod's containers already carry requests
 * defaulted from their limits (kube's pod defaulting), so a default request
 * applies only where neither was given.
 */
export function defaultPodResources(pod: Pod, range: LimitRange): void {
  const limits: QuantityList = {};
  const requests: QuantityList = {};
  for (const item of items(range, "Container")) {
    Object.assign(requests, item.defaultRequest);
    Object.assign(limits, item.default);
  }
  const notes: string[] = [];
  const merge = (c: Container, what: string) => {
    c.resources ??= {};
    c.resources.limits ??= {};
    c.resources.requests ??= {};
    const setRequests = fill(c.resources.requests, requests);
    const setLimits = fill(c.resources.limits, limits);
    if (setRequests.length > 0)
      notes.push(`${setRequests.join(", ")} request for ${what} ${c.name}`);
    if (setLimits.length > 0) notes.push(`${setLimits.join(", ")} limit for ${what} ${c.name}`);
  };
  for (const c of pod.spec?.containers ?? []) merge(c, "container");
  for (const c of pod.spec?.initContainers ?? []) merge(c, "init container");
  if (notes.length > 0)
    pod.metadata.annotations = {
      ...pod.metadata.annotations,
      [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join("; ")}`,
    };
}

/** Copies each container's limits to its missing requests, as kube's pod defaulting does. */
export function requestsFromLimits(pod: Pod): void {
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    if (!c.resources?.limits) continue;
    c.resources.requests ??= {};
    fill(c.resources.requests, c.resources.limits);
  }
}

const show = (q: string | number) => canonicalQuantity(q);
const milli = (q: string | number | undefined) => (q === undefined ? 0n : quantityMilliValue(q));

function minConstraint(
  type: string,
  name: string,
  enforced: string | number,
  requests: QuantityList,
  limits: QuantityList,
): string | undefined {
  const req = requests[name];
  const lim = limits[name];
  const at = `minimum ${name} usage per ${type} is ${show(enforced)}`;
  if (req === undefined) return `${at}.  No request is specified`;
  if (milli(req) < milli(enforced)) return `${at}, but request is ${show(req)}`;
  if (lim !== undefined && milli(lim) < milli(enforced)) return `${at}, but limit is ${show(lim)}`;
  return undefined;
}

function maxConstraint(
  type: string,
  name: string,
  enforced: string | number,
  requests: QuantityList,
  limits: QuantityList,
): string | undefined {
  const req = requests[name];
  const lim = limits[name];
  const at = `maximum ${name} usage per ${type} is ${show(enforced)}`;
  if (lim === undefined) return `${at}.  No limit is specified`;
  if (milli(lim) > milli(enforced)) return `${at}, but limit is ${show(lim)}`;
  if (req !== undefined && milli(req) > milli(enforced))
    return `${at}, but request is ${show(req)}`;
  return undefined;
}

function ratioConstraint(
  type: string,
  name: string,
  enforced: string | number,
  requests: QuantityList,
  limits: QuantityList,
): string | undefined {
  const req = milli(requests[name]);
  const lim = milli(limits[name]);
  const at = `${name} max limit to request ratio per ${type} is ${show(enforced)}`;
  if (req === 0n) return `${at}, but no request is specified or request is 0`;
  if (lim === 0n) return `${at}, but no limit is specified or limit is 0`;
  const ratio = Number(lim) / Number(req);
  if (ratio * 1000 > Number(milli(enforced)))
    return `${at}, but provided ratio is ${ratio.toFixed(6)}`;
  return undefined;
}

/** Every bound of `item` checked against one requests/limits pair. */
function boundsErrors(
  item: LimitRangeItem,
  requests: QuantityList,
  limits: QuantityList,
): string[] {
  const type = item.type ?? "";
  const out: (string | undefined)[] = [];
  const sorted = (list: QuantityList | undefined) => Object.entries(list ?? {}).sort();
  for (const [k, v] of sorted(item.min)) out.push(minConstraint(type, k, v, requests, limits));
  for (const [k, v] of sorted(item.max)) out.push(maxConstraint(type, k, v, requests, limits));
  for (const [k, v] of sorted(item.maxLimitRequestRatio))
    out.push(ratioConstraint(type, k, v, requests, limits));
  return out.filter((e): e is string => e !== undefined);
}

/** kube's `PodValidateLimitFunc`: Container items per container, Pod items on the pod's totals. */
export function podLimitErrors(range: LimitRange, pod: Pod): string[] {
  const errors: string[] = [];
  for (const item of range.spec?.limits ?? []) {
    if (item.type === "Container")
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])])
        errors.push(...boundsErrors(item, c.resources?.requests ?? {}, c.resources?.limits ?? {}));
    if (item.type === "Pod") {
      const { requests, limits } = podTotals(pod);
      errors.push(...boundsErrors(item, requests, limits));
    }
  }
  return errors;
}

/** kube's `PersistentVolumeClaimValidateLimitFunc`: min and max of the storage request. */
export function claimLimitErrors(range: LimitRange, pvc: PersistentVolumeClaim): string[] {
  const requests = pvc.spec?.resources?.requests ?? {};
  const errors: (string | undefined)[] = [];
  for (const item of items(range, "PersistentVolumeClaim")) {
    for (const [k, v] of Object.entries(item.min ?? {}).sort())
      errors.push(minConstraint("PersistentVolumeClaim", k, v, requests, {}));
    for (const [k, v] of Object.entries(item.max ?? {}).sort()) {
      const req = requests[k];
      const at = `maximum ${k} usage per PersistentVolumeClaim is ${show(v)}`;
      if (req === undefined) errors.push(`${at}.  No request is specified`);
      else if (milli(req) > milli(v)) errors.push(`${at}, but request is ${show(req)}`);
    }
  }
  return errors.filter((e): e is string => e !== undefined);
}

/** One message for several errors, as apimachinery's aggregate: `[a, b]`. */
export function aggregate(errors: string[]): string {
  return errors.length === 1 ? errors[0]! : `[${errors.join(", ")}]`;
}
