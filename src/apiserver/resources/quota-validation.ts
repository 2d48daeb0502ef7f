/**
 * Validation and defaults of v1 ResourceQuota and LimitRange, as kube's
 * `ValidateResourceQuota`, `ValidateLimitRange` and `SetDefaults_LimitRangeItem`:
 * resource names must be standard (or fully qualified), quantities must parse
 * (Hearth names the field, where kube's decoder answers 400 without one), be
 * non-negative and whole for countable resources; scopes must be known, fit the
 * quota's resources, not conflict, and not change; a LimitRange's
 * min ≤ defaultRequest ≤ default ≤ max per resource, one item per type.
 */
import {
  COMPUTE_RESOURCES,
  canonicalList,
  canonicalQuantity,
  type FieldError,
  forbiddenValue,
  invalidValue,
  isNativeResource,
  isQuantity,
  parseQuantity,
  QUANTITY_FORMAT_MESSAGE,
  type QuantityList,
  qualifiedName,
  type ResourceQuota,
  requiredValue,
} from "../../api/index.js";
import { duplicate } from "../validation/field-errors.js";

export interface LimitRangeItem {
  type?: string;
  max?: QuantityList;
  min?: QuantityList;
  default?: QuantityList;
  defaultRequest?: QuantityList;
  maxLimitRequestRatio?: QuantityList;
}

export interface LimitRange {
  spec?: { limits?: LimitRangeItem[] };
}

const COUNTED = [
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "services.nodeports",
  "services.loadbalancers",
];
const QUOTA_RESOURCES = new Set([...COMPUTE_RESOURCES, ...COUNTED, "requests.storage"]);
const STANDARD_RESOURCES = new Set([...QUOTA_RESOURCES, "storage"]);
const CONTAINER_RESOURCES = new Set(["cpu", "memory", "ephemeral-storage"]);
const SCOPES = [
  "Terminating",
  "NotTerminating",
  "BestEffort",
  "NotBestEffort",
  "PriorityClass",
  "CrossNamespacePodAffinity",
];
const POD_COMPUTE_SCOPED = ["pods", ...COMPUTE_RESOURCES.filter((r) => !r.includes("ephemeral"))];
const EXISTS_ONLY = SCOPES.filter((s) => s !== "PriorityClass");
const LIMIT_TYPES = new Set(["Pod", "Container", "PersistentVolumeClaim"]);

const isHugePages = (n: string) => n.startsWith("hugepages-");
const isQuotaHugePages = (n: string) => isHugePages(n) || n.startsWith("requests.hugepages-");

function isExtendedResource(name: string): boolean {
  if (isNativeResource(name) || name.startsWith("requests.")) return false;
  return qualifiedName(`requests.${name}`).length === 0;
}

const isIntegerResource = (n: string) => COUNTED.includes(n) || isExtendedResource(n);

function resourceNameErrors(field: string, name: string): FieldError[] {
  const errors = qualifiedName(name).map((why) => invalidValue(field, name, why));
  if (errors.length > 0) return errors;
  if (!name.includes("/") && !STANDARD_RESOURCES.has(name) && !isQuotaHugePages(name))
    errors.push(invalidValue(field, name, "must be a standard resource type or fully qualified"));
  return errors;
}

function quotaResourceNameErrors(field: string, name: string): FieldError[] {
  const errors = resourceNameErrors(field, name);
  if (!name.includes("/") && !QUOTA_RESOURCES.has(name) && !isQuotaHugePages(name))
    errors.push(invalidValue(field, name, "must be a standard resource for quota"));
  return errors;
}

function containerResourceNameErrors(field: string, name: string): FieldError[] {
  const errors = resourceNameErrors(field, name);
  if (!name.includes("/")) {
    if (!CONTAINER_RESOURCES.has(name) && !isHugePages(name))
      errors.push(invalidValue(field, name, "must be a standard resource for containers"));
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    errors.push(invalidValue(field, name, "doesn't follow extended resource name standard"));
  }
  return errors;
}

/** A quantity that parses, is not negative, and is whole for countable resources. */
function quantityErrors(field: string, name: string, value: unknown): FieldError[] {
  if (!isQuantity(value)) return [invalidValue(field, value, QUANTITY_FORMAT_MESSAGE)];
  const q = value as string | number;
  const errors: FieldError[] = [];
  const nano = parseQuantity(q);
  if (nano < 0n)
    errors.push(invalidValue(field, canonicalQuantity(q), "must be greater than or equal to 0"));
  if (isIntegerResource(name) && nano % 1_000_000_000n !== 0n)
    errors.push(invalidValue(field, canonicalQuantity(q), "must be an integer"));
  return errors;
}

function quotaListErrors(path: string, list: QuantityList | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(list ?? {})) {
    const field = `${path}[${name}]`;
    errors.push(...quotaResourceNameErrors(field, name), ...quantityErrors(field, name, value));
  }
  return errors;
}

function conflictingScopes(scopes: Set<string>): boolean {
  return (
    (scopes.has("BestEffort") && scopes.has("NotBestEffort")) ||
    (scopes.has("Terminating") && scopes.has("NotTerminating"))
  );
}

/** A scope on a standard resource it cannot filter (`BestEffort` on `requests.cpu`). */
function scopeFits(scope: string, hard: string[]): boolean {
  return hard.every((r) => {
    if (!QUOTA_RESOURCES.has(r) && !isQuotaHugePages(r)) return true;
    if (scope === "BestEffort") return r === "pods";
    return !SCOPES.includes(scope) || POD_COMPUTE_SCOPED.includes(r);
  });
}

function scopeErrors(q: ResourceQuota): FieldError[] {
  const spec = q.spec ?? {};
  const hard = Object.keys(spec.hard ?? {});
  const errors: FieldError[] = [];
  const scopes = spec.scopes ?? [];
  for (const scope of scopes) {
    if (!SCOPES.includes(scope))
      errors.push(invalidValue("spec.scopes", scopes, "unsupported scope"));
    if (!scopeFits(scope, hard))
      errors.push(invalidValue("spec.scopes", scopes, "unsupported scope applied to resource"));
  }
  if (conflictingScopes(new Set(scopes)))
    errors.push(invalidValue("spec.scopes", scopes, "conflicting scopes"));
  const selector = spec.scopeSelector;
  if (!selector) return errors;
  const at = "spec.scopeSelector.matchExpressions";
  const named = new Set<string>();
  for (const req of selector.matchExpressions ?? []) {
    if (!SCOPES.includes(req.scopeName))
      errors.push(invalidValue(`${at}.scopeName`, req.scopeName, "unsupported scope"));
    if (!scopeFits(req.scopeName, hard))
      errors.push(invalidValue(at, selector, "unsupported scope applied to resource"));
    if (EXISTS_ONLY.includes(req.scopeName) && req.operator !== "Exists")
      errors.push(
        invalidValue(
          `${at}.operator`,
          req.operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    const values = req.values ?? [];
    if (req.operator === "In" || req.operator === "NotIn") {
      if (values.length === 0)
        errors.push(
          requiredValue(
            `${at}.values`,
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
          ),
        );
    } else if (req.operator === "Exists" || req.operator === "DoesNotExist") {
      if (values.length > 0)
        errors.push(
          invalidValue(
            `${at}.values`,
            values,
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        );
    } else
      errors.push(invalidValue(`${at}.operator`, req.operator, "not a valid selector operator"));
    named.add(req.scopeName);
  }
  if (conflictingScopes(named)) errors.push(invalidValue(at, scopes, "conflicting scopes"));
  return errors;
}

/** kube's `ValidateResourceQuota` (and, with `old`, `ValidateResourceQuotaUpdate`: scopes are immutable). */
export function validateResourceQuota(obj: object, old: object | undefined): FieldError[] {
  const q = obj as ResourceQuota;
  const errors = [
    ...quotaListErrors("spec.hard", q.spec?.hard),
    ...scopeErrors(q),
    ...quotaListErrors("status.hard", q.status?.hard),
    ...quotaListErrors("status.used", q.status?.used),
  ];
  if (old) {
    const before = new Set((old as ResourceQuota).spec?.scopes ?? []);
    const now = new Set(q.spec?.scopes ?? []);
    if (before.size !== now.size || [...now].some((s) => !before.has(s)))
      errors.push(invalidValue("spec.scopes", q.spec?.scopes ?? [], "field is immutable"));
  }
  return errors;
}

/** Stores every quantity of a quota in canonical form, as kube serializes them. */
export function canonicalQuota(obj: object): void {
  const q = obj as ResourceQuota;
  if (q.spec?.hard) q.spec.hard = canonicalList(q.spec.hard);
  if (q.status?.hard) q.status.hard = canonicalList(q.status.hard);
  if (q.status?.used) q.status.used = canonicalList(q.status.used);
}

/** The entries that parse: a malformed bound is reported where it was written, not copied. */
function quantitiesOf(list: QuantityList | undefined): QuantityList {
  return Object.fromEntries(Object.entries(list ?? {}).filter(([, v]) => isQuantity(v)));
}

type ItemMap = "max" | "min" | "default" | "defaultRequest" | "maxLimitRequestRatio";
const ITEM_MAPS: ItemMap[] = ["max", "min", "default", "defaultRequest", "maxLimitRequestRatio"];

/**
 * kube's `SetDefaults_LimitRangeItem` for Container items: a default limit from
 * max, a default request from the default limit, else from min. Quantities are
 * canonical.
 */
export function defaultLimitRange(obj: object): void {
  for (const item of (obj as LimitRange).spec?.limits ?? []) {
    for (const m of ITEM_MAPS) if (item[m]) item[m] = canonicalList(item[m]);
    if (item.type !== "Container") continue;
    const defaults = { ...quantitiesOf(item.max), ...item.default };
    const requests = { ...quantitiesOf(item.min), ...defaults, ...item.defaultRequest };
    if (Object.keys(defaults).length > 0) item.default = defaults;
    if (Object.keys(requests).length > 0) item.defaultRequest = requests;
  }
}

function cmp(a: string | number, b: string | number): number {
  const d = parseQuantity(a) - parseQuantity(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** The comparisons between one resource's min, max, defaults and ratio in an item. */
function boundErrors(at: string, k: string, item: LimitRangeItem): FieldError[] {
  const get = (m: ItemMap) => {
    const v = item[m]?.[k];
    return isQuantity(v) ? (v as string | number) : undefined;
  };
  const [min, max, def, req, ratio] = [
    get("min"),
    get("max"),
    get("default"),
    get("defaultRequest"),
    get("maxLimitRequestRatio"),
  ];
  const s = (v: string | number) => canonicalQuantity(v);
  const errors: FieldError[] = [];
  const bad = (m: ItemMap, value: string | number, why: string) =>
    errors.push(invalidValue(`${at}.${m}[${k}]`, s(value), why));
  if (min !== undefined && max !== undefined && cmp(min, max) > 0)
    bad("min", min, `min value ${s(min)} is greater than max value ${s(max)}`);
  if (req !== undefined && min !== undefined && cmp(min, req) > 0)
    bad(
      "defaultRequest",
      req,
      `min value ${s(min)} is greater than default request value ${s(req)}`,
    );
  if (req !== undefined && max !== undefined && cmp(req, max) > 0)
    bad(
      "defaultRequest",
      req,
      `default request value ${s(req)} is greater than max value ${s(max)}`,
    );
  if (req !== undefined && def !== undefined && cmp(req, def) > 0)
    bad(
      "defaultRequest",
      req,
      `default request value ${s(req)} is greater than default limit value ${s(def)}`,
    );
  if (def !== undefined && min !== undefined && cmp(min, def) > 0)
    bad("default", min, `min value ${s(min)} is greater than default value ${s(def)}`);
  if (def !== undefined && max !== undefined && cmp(def, max) > 0)
    bad("default", max, `default value ${s(def)} is greater than max value ${s(max)}`);
  if (ratio !== undefined && cmp(ratio, 1) < 0)
    bad("maxLimitRequestRatio", ratio, `ratio ${s(ratio)} is less than 1`);
  if (ratio !== undefined && min !== undefined && max !== undefined) {
    const milli = (v: string | number) => Number(parseQuantity(v) / 1_000_000n);
    const allowed = milli(max) / milli(min);
    if (milli(ratio) / 1000 > allowed)
      bad(
        "maxLimitRequestRatio",
        ratio,
        `ratio ${s(ratio)} is greater than max/min = ${allowed.toFixed(6)}`,
      );
  }
  const overcommit = isNativeResource(k) && !isHugePages(k);
  if (!overcommit && def !== undefined && req !== undefined && cmp(def, req) !== 0)
    bad(
      "defaultRequest",
      req,
      `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`,
    );
  return errors;
}

function itemErrors(at: string, item: LimitRangeItem): FieldError[] {
  const errors: FieldError[] = [];
  const type = item.type ?? "";
  errors.push(...qualifiedName(type).map((why) => invalidValue(`${at}.type`, type, why)));
  if (errors.length === 0 && !type.includes("/") && !LIMIT_TYPES.has(type))
    errors.push(
      invalidValue(`${at}.type`, type, "must be a standard limit type or fully qualified"),
    );
  const nameErrors = (field: string, name: string) =>
    type === "Pod" || type === "Container"
      ? containerResourceNameErrors(field, name)
      : resourceNameErrors(field, name);
  const keys = new Set<string>();
  for (const m of ITEM_MAPS) {
    if (type === "Pod" && (m === "default" || m === "defaultRequest")) {
      if (Object.keys(item[m] ?? {}).length > 0)
        errors.push(forbiddenValue(`${at}.${m}`, "may not be specified when `type` is 'Pod'"));
      continue;
    }
    for (const [name, value] of Object.entries(item[m] ?? {})) {
      const field = `${at}.${m}[${name}]`;
      errors.push(...nameErrors(field, name));
      if (!isQuantity(value)) errors.push(invalidValue(field, value, QUANTITY_FORMAT_MESSAGE));
      keys.add(name);
    }
  }
  if (
    type === "PersistentVolumeClaim" &&
    item.min?.storage === undefined &&
    item.max?.storage === undefined
  )
    errors.push(
      requiredValue(
        `${at}.limits`,
        "either minimum or maximum storage value is required, but neither was provided",
      ),
    );
  for (const k of [...keys].sort()) errors.push(...boundErrors(at, k, item));
  return errors;
}

/** kube's `ValidateLimitRange`. */
export function validateLimitRange(obj: object): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, item] of ((obj as LimitRange).spec?.limits ?? []).entries()) {
    const at = `spec.limits[${i}]`;
    errors.push(...itemErrors(at, item));
    const type = item.type ?? "";
    if (seen.has(type)) errors.push(duplicate(`${at}.type`, type));
    seen.add(type);
  }
  return errors;
}
