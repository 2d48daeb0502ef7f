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
import { nonNegative, notSupported } from "./batch-validation.js";
import { podTemplateErrors } from "./pod-template-validation.js";

/** The selector of a workload kind: required, valid, not empty (`what` names the kind as kube's message does). */
export function workloadSelectorErrors(
  selector: LabelSelector | undefined,
  at: string,
  what: string,
): FieldError[] {
  if (selector === undefined || selector === null) return [requiredValue(at)];
  const errors = validateLabelSelector(selector, at);
  if (selectorSize(selector) === 0)
    errors.push(invalidValue(at, selector, `empty selector is invalid for ${what}`));
  return errors;
}

function selectorSize(selector: LabelSelector | undefined): number {
  return (
    Object.keys(selector?.matchLabels ?? {}).length + (selector?.matchExpressions ?? []).length
  );
}

/** A non-empty selector must select the template's labels. */
export function selectsTemplateErrors(
  template: PodTemplateSpec | undefined,
  selector: LabelSelector | undefined,
  at: string,
): FieldError[] {
  if (!selector || selectorSize(selector) === 0) return [];
  const labels = template?.metadata?.labels ?? {};
  let matches: boolean;
  try {
    matches = labelSelectorFromObject(selector).matches((k) => labels[k]);
  } catch {
    return []; // a bad operator is reported by the selector's own checks
  }
  return matches
    ? []
    : [
        invalidValue(
          `${at}.metadata.labels`,
          labels,
          "`selector` does not match template `labels`",
        ),
      ];
}

/** What a workload's pods must be: restartPolicy Always, no activeDeadlineSeconds (`kind` in the message). */
export function alwaysRunningErrors(
  template: PodTemplateSpec | undefined,
  at: string,
  kind: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const restart = template?.spec?.restartPolicy;
  if (restart !== "Always")
    errors.push(notSupported(`${at}.spec.restartPolicy`, restart ?? "", ["Always"]));
  if (template?.spec?.activeDeadlineSeconds !== undefined)
    errors.push(
      forbiddenValue(
        `${at}.spec.activeDeadlineSeconds`,
        `activeDeadlineSeconds in ${kind} is not Supported`,
      ),
    );
  return errors;
}

/** ValidatePodTemplateSpecForReplicaSet. */
function templateErrors(
  template: PodTemplateSpec | undefined,
  selector: LabelSelector | undefined,
  at: string,
): FieldError[] {
  if (!template || typeof template !== "object") return [requiredValue(at)];
  return [
    ...selectsTemplateErrors(template, selector, at),
    ...podTemplateErrors(template, at),
    ...alwaysRunningErrors(template, at, "ReplicaSet"),
  ];
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
    ...workloadSelectorErrors(spec.selector, "spec.selector", "deployment"),
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
    ...workloadSelectorErrors(spec.selector, "spec.selector", "deployment"),
    ...templateErrors(spec.template, spec.selector, "spec.template"),
  ];
  if (old && !same(spec.selector, (old as ReplicaSet).spec?.selector))
    errors.push(immutable("spec.selector", spec.selector));
  return errors;
}
