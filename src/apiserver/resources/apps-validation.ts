/**
 * kube's apps validation (pkg/apis/apps/validation) for Deployment and
 * ReplicaSet, with its field paths and messages: a required, non-empty
 * selector that matches the template labels, `restartPolicy` Always only,
 * non-negative counts, the rolling-update int-or-percent fields (not both 0,
 * at most 100% unavailable), Recreate without `rollingUpdate`, a progress
 * deadline above minReadySeconds, and the selector immutable on update (the
 * strategies' ValidateUpdate for apps/v1).
 */
import { isDeepStrictEqual } from "node:util";
import {
  type Deployment,
  type DeploymentSpec,
  type FieldError,
  forbiddenValue,
  intOrPercentValue,
  invalidValue,
  isObject,
  type KubeObject,
  type LabelSelector,
  labelSelectorFromObject,
  notMoreThan100PercentErrors,
  type PodTemplateSpec,
  positiveIntOrPercentErrors,
  type ReplicaSet,
  requiredValue,
} from "../../api/index.js";
import { validateLabelSelector } from "../admission/policy/match-validation.js";
import { notSupported } from "./batch-validation.js";
import { podTemplateErrors } from "./pod-template-validation.js";

function nonNegative(field: string, value: number | undefined): FieldError[] {
  return value !== undefined && value < 0
    ? [invalidValue(field, value, "must be greater than or equal to 0")]
    : [];
}

function selectorErrors(selector: LabelSelector | undefined, at: string): FieldError[] {
  if (selector === undefined || selector === null) return [requiredValue(at)];
  const errors = validateLabelSelector(selector, at);
  const size =
    Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length;
  if (size === 0)
    errors.push(invalidValue(at, selector, "empty selector is invalid for deployment"));
  return errors;
}

function matches(selector: LabelSelector, labels: Record<string, string>): boolean {
  try {
    return labelSelectorFromObject(selector).matches((k) => labels[k]);
  } catch {
    return true; // a bad operator is reported by the selector's own checks
  }
}

/** ValidatePodTemplateSpecForReplicaSet. */
function templateErrors(
  template: PodTemplateSpec | undefined,
  selector: LabelSelector | undefined,
  at: string,
): FieldError[] {
  if (!template || typeof template !== "object") return [requiredValue(at)];
  const errors: FieldError[] = [];
  const labels = template.metadata?.labels ?? {};
  const size =
    Object.keys(selector?.matchLabels ?? {}).length + (selector?.matchExpressions ?? []).length;
  if (selector && size > 0 && !matches(selector, labels))
    errors.push(
      invalidValue(`${at}.metadata.labels`, labels, "`selector` does not match template `labels`"),
    );
  errors.push(...podTemplateErrors(template, at));
  const restart = template.spec?.restartPolicy;
  if (restart !== "Always")
    errors.push(notSupported(`${at}.spec.restartPolicy`, restart, ["Always"]));
  if (template.spec?.activeDeadlineSeconds !== undefined)
    errors.push(
      forbiddenValue(
        `${at}.spec.activeDeadlineSeconds`,
        "activeDeadlineSeconds in ReplicaSet is not Supported",
      ),
    );
  return errors;
}

function strategyErrors(spec: DeploymentSpec, at: string): FieldError[] {
  const strategy = spec.strategy ?? {};
  const rolling = strategy.rollingUpdate;
  if (strategy.type === "Recreate")
    return rolling !== undefined && rolling !== null
      ? [
          forbiddenValue(
            `${at}.rollingUpdate`,
            "may not be specified when strategy `type` is 'Recreate'",
          ),
        ]
      : [];
  if (strategy.type !== "RollingUpdate")
    return [notSupported(`${at}.Type`, strategy.type, ["Recreate", "RollingUpdate"])];
  if (!rolling || typeof rolling !== "object")
    return [requiredValue(`${at}.rollingUpdate`, "this should be defaulted and never be nil")];
  const field = `${at}.rollingUpdate`;
  const errors = [
    ...positiveIntOrPercentErrors(`${field}.maxUnavailable`, rolling.maxUnavailable),
    ...positiveIntOrPercentErrors(`${field}.maxSurge`, rolling.maxSurge),
  ];
  if (intOrPercentValue(rolling.maxUnavailable) === 0 && intOrPercentValue(rolling.maxSurge) === 0)
    errors.push(
      invalidValue(
        `${field}.maxUnavailable`,
        rolling.maxUnavailable,
        "may not be 0 when `maxSurge` is 0",
      ),
    );
  errors.push(...notMoreThan100PercentErrors(`${field}.maxUnavailable`, rolling.maxUnavailable));
  return errors;
}

const immutable = (field: string, value: unknown) =>
  invalidValue(field, value, "field is immutable");
const same = (a: unknown, b: unknown) => isDeepStrictEqual(a ?? null, b ?? null);

/** ValidateDeployment, and on update the apps/v1 immutable selector. */
export function validateDeployment(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const d = (isObject(obj.spec) ? obj : { ...obj, spec: {} }) as Deployment;
  const spec = d.spec;
  const errors = [
    ...nonNegative("spec.replicas", spec.replicas),
    ...selectorErrors(spec.selector, "spec.selector"),
    ...templateErrors(spec.template, spec.selector, "spec.template"),
    ...strategyErrors(spec, "spec.strategy"),
    ...nonNegative("spec.revisionHistoryLimit", spec.revisionHistoryLimit),
  ];
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined) {
    errors.push(...nonNegative("spec.progressDeadlineSeconds", deadline));
    if (deadline <= (spec.minReadySeconds ?? 0))
      errors.push(
        invalidValue(
          "spec.progressDeadlineSeconds",
          deadline,
          "must be greater than minReadySeconds",
        ),
      );
  }
  errors.push(...nonNegative("spec.minReadySeconds", spec.minReadySeconds));
  if (old && !same(spec.selector, (old as Deployment).spec?.selector))
    errors.push(immutable("spec.selector", spec.selector));
  return errors;
}

/** ValidateReplicaSet, and on update the apps/v1 immutable selector. */
export function validateReplicaSet(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const rs = (isObject(obj.spec) ? obj : { ...obj, spec: {} }) as ReplicaSet;
  const spec = rs.spec;
  const errors = [
    ...nonNegative("spec.replicas", spec.replicas),
    ...nonNegative("spec.minReadySeconds", spec.minReadySeconds),
    ...selectorErrors(spec.selector, "spec.selector"),
    ...templateErrors(spec.template, spec.selector, "spec.template"),
  ];
  if (old && !same(spec.selector, (old as ReplicaSet).spec?.selector))
    errors.push(immutable("spec.selector", spec.selector));
  return errors;
}
