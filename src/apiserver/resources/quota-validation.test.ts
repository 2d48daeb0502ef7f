/** ResourceQuota and LimitRange validation and defaults, rule by rule, with kube's field paths and wording. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FieldError } from "../../api/index.js";
import {
  canonicalQuota,
  defaultLimitRange,
  type LimitRange,
  type LimitRangeItem,
  validateLimitRange,
  validateResourceQuota,
} from "./quota-validation.js";

const messages = (errors: FieldError[]) => errors.map((e) => `${e.field}: ${e.detail}`);

const quota = (spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  spec,
  ...(status ? { status } : {}),
});

describe("validateResourceQuota", () => {
  it("accepts kube's resource names and fully qualified ones", () => {
    const hard = {
      pods: "10",
      "requests.cpu": "2",
      "limits.memory": "4Gi",
      "requests.storage": "100Gi",
      "count/configmaps": "5",
      "count/jobs.batch": "3",
      "fast.storageclass.storage.k8s.io/requests.storage": "10Gi",
      "requests.example.com/gpu": "1",
      "services.loadbalancers": "0",
    };
    assert.deepEqual(messages(validateResourceQuota(quota({ hard }), undefined)), []);
  });

  it("names the field of an unknown resource, a malformed or negative quantity, a fractional count", () => {
    const hard = { foo: "1", cpu: "lots", memory: "-1", pods: "1500m", storage: "1Gi" };
    assert.deepEqual(messages(validateResourceQuota(quota({ hard }), undefined)), [
      'spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
      'spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota',
      "spec.hard[cpu]: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      'spec.hard[memory]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.hard[pods]: Invalid value: "1500m": must be an integer',
      'spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota',
    ]);
    const bad = { "bad name!": "1" };
    assert.match(
      messages(validateResourceQuota(quota({ hard: bad }), undefined))[0]!,
      /^spec\.hard\[bad name!\]: Invalid value: "bad name!": name part must consist of/,
    );
  });

  it("checks status names too", () => {
    const errors = validateResourceQuota(quota({}, { used: { nope: "1" } }), undefined);
    assert.equal(errors[0]?.field, "status.used[nope]");
  });

  it("refuses unknown, ill-fitting and conflicting scopes", () => {
    const check = (hard: Record<string, string>, scopes: string[]) =>
      messages(validateResourceQuota(quota({ hard, scopes }), undefined));
    assert.deepEqual(check({ pods: "1" }, ["Sometimes"]), [
      "spec.scopes: Invalid value: []: unsupported scope",
    ]);
    assert.deepEqual(check({ "requests.cpu": "1" }, ["BestEffort"]), [
      "spec.scopes: Invalid value: []: unsupported scope applied to resource",
    ]);
    assert.deepEqual(check({ services: "1" }, ["NotTerminating"]), [
      "spec.scopes: Invalid value: []: unsupported scope applied to resource",
    ]);
    assert.deepEqual(check({ pods: "1" }, ["Terminating", "NotTerminating"]), [
      "spec.scopes: Invalid value: []: conflicting scopes",
    ]);
    assert.deepEqual(check({ pods: "1", "count/configmaps": "1" }, ["BestEffort"]), []);
  });

  it("checks scope selector operators and values", () => {
    const selector = (expr: Record<string, unknown>) =>
      messages(
        validateResourceQuota(
          quota({ hard: { pods: "1" }, scopeSelector: { matchExpressions: [expr] } }),
          undefined,
        ),
      );
    assert.deepEqual(
      selector({ scopeName: "PriorityClass", operator: "In", values: ["high"] }),
      [],
    );
    assert.deepEqual(selector({ scopeName: "PriorityClass", operator: "In" }), [
      "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
    ]);
    assert.deepEqual(selector({ scopeName: "BestEffort", operator: "DoesNotExist" }), [
      "spec.scopeSelector.matchExpressions.operator: Invalid value: \"DoesNotExist\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
    ]);
    assert.deepEqual(selector({ scopeName: "PriorityClass", operator: "Near" }), [
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "Near": not a valid selector operator',
    ]);
  });

  it("keeps scopes immutable", () => {
    const old = quota({ hard: { pods: "1" }, scopes: ["BestEffort"] });
    const next = quota({ hard: { pods: "2" }, scopes: ["NotBestEffort"] });
    assert.deepEqual(messages(validateResourceQuota(next, old)), [
      "spec.scopes: Invalid value: []: field is immutable",
    ]);
    assert.deepEqual(messages(validateResourceQuota(old, old)), []);
  });

  it("stores canonical quantities", () => {
    const q = quota(
      { hard: { cpu: "1000m", memory: "1024Mi", pods: 2 } },
      { used: { cpu: "0.5" } },
    );
    canonicalQuota(q);
    assert.deepEqual(q, {
      spec: { hard: { cpu: "1", memory: "1Gi", pods: "2" } },
      status: { used: { cpu: "500m" } },
    });
  });
});

const range = (...limits: LimitRangeItem[]): LimitRange => ({ spec: { limits } });

describe("defaultLimitRange", () => {
  it("defaults a Container item's limit from max and its request from the limit, else from min", () => {
    const r = range(
      { type: "Container", max: { cpu: "2000m", memory: "1Gi" }, min: { memory: "64Mi" } },
      { type: "Container", default: { cpu: "1" }, min: { cpu: "100m" } },
      { type: "Container", min: { cpu: "100m" } },
      { type: "Pod", max: { cpu: "4" } },
    );
    defaultLimitRange(r);
    assert.deepEqual(r.spec?.limits, [
      {
        type: "Container",
        max: { cpu: "2", memory: "1Gi" },
        min: { memory: "64Mi" },
        default: { cpu: "2", memory: "1Gi" },
        defaultRequest: { cpu: "2", memory: "1Gi" },
      },
      {
        type: "Container",
        default: { cpu: "1" },
        min: { cpu: "100m" },
        defaultRequest: { cpu: "1" },
      },
      { type: "Container", min: { cpu: "100m" }, defaultRequest: { cpu: "100m" } },
      { type: "Pod", max: { cpu: "4" } },
    ]);
  });

  it("does not copy a malformed bound into the defaults", () => {
    const r = range({ type: "Container", max: { cpu: "lots" } });
    defaultLimitRange(r);
    assert.deepEqual(r.spec?.limits, [{ type: "Container", max: { cpu: "lots" } }]);
  });
});

describe("validateLimitRange", () => {
  it("accepts a consistent range", () => {
    const r = range(
      {
        type: "Container",
        min: { cpu: "100m" },
        max: { cpu: "2" },
        default: { cpu: "1" },
        defaultRequest: { cpu: "500m" },
        maxLimitRequestRatio: { cpu: "4" },
      },
      { type: "Pod", max: { memory: "2Gi" } },
      { type: "PersistentVolumeClaim", max: { storage: "10Gi" } },
    );
    assert.deepEqual(messages(validateLimitRange(r)), []);
  });

  it("names a malformed quantity and a resource containers cannot have", () => {
    const r = range({ type: "Container", max: { cpu: "two", storage: "1Gi" } });
    assert.deepEqual(messages(validateLimitRange(r)), [
      "spec.limits[0].max[cpu]: Invalid value: \"two\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      'spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers',
    ]);
  });

  it("orders min, default request, default and max", () => {
    const r = range({
      type: "Container",
      min: { cpu: "2" },
      max: { cpu: "1" },
      default: { cpu: "3" },
      defaultRequest: { cpu: "4" },
    });
    assert.deepEqual(messages(validateLimitRange(r)), [
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "4": default request value 4 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "4": default request value 4 is greater than default limit value 3',
      'spec.limits[0].default[cpu]: Invalid value: "1": default value 3 is greater than max value 1',
    ]);
  });

  it("bounds the limit-to-request ratio", () => {
    const low = range({ type: "Container", maxLimitRequestRatio: { cpu: "500m" } });
    assert.deepEqual(messages(validateLimitRange(low)), [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    ]);
    const high = range({
      type: "Pod",
      min: { cpu: "1" },
      max: { cpu: "2" },
      maxLimitRequestRatio: { cpu: "3" },
    });
    assert.deepEqual(messages(validateLimitRange(high)), [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
    ]);
  });

  it("refuses defaults on Pod items, claims without storage bounds, unknown and repeated types", () => {
    const r = range(
      { type: "Pod", default: { cpu: "1" } },
      { type: "PersistentVolumeClaim", max: { cpu: "1" } },
      { type: "Gadget" },
      { type: "Pod" },
    );
    assert.deepEqual(messages(validateLimitRange(r)), [
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
      "spec.limits[1].limits: Required value: either minimum or maximum storage value is required, but neither was provided",
      'spec.limits[2].type: Invalid value: "Gadget": must be a standard limit type or fully qualified',
      'spec.limits[3].type: Duplicate value: "Pod"',
    ]);
  });
});
