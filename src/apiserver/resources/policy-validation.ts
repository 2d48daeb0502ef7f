/**
 * kube's policy validation (pkg/apis/policy/validation) for PodDisruptionBudget,
 * with its field paths and messages: `minAvailable` and `maxUnavailable` not
 * both, each a non-negative integer or a percentage of at most 100%, a valid
 * label selector (apimachinery's ValidateLabelSelector), a known
 * `unhealthyPodEvictionPolicy`, and non-negative status counts.
 */
import {
  type FieldError,
  invalidValue,
  type KubeObject,
  notMoreThan100PercentErrors,
  type PodDisruptionBudget,
  positiveIntOrPercentErrors,
} from "../../api/index.js";
import { validateLabelSelector } from "../admission/policy/match-validation.js";
import { notSupported } from "./batch-validation.js";

const POLICIES = ["AlwaysAllow", "IfHealthyBudget"];

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent, as kube checks both budget fields. */
function intOrPercentErrors(field: string, v: unknown): FieldError[] {
  return [...positiveIntOrPercentErrors(field, v), ...notMoreThan100PercentErrors(field, v)];
}

/** ValidatePodDisruptionBudgetSpec and (policy/v1) the status counts. */
export function validatePodDisruptionBudget(obj: KubeObject): FieldError[] {
  const pdb = obj as PodDisruptionBudget;
  const spec = pdb.spec ?? {};
  const errors: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined)
    errors.push(invalidValue("spec", spec, "minAvailable and maxUnavailable cannot be both set"));
  if (spec.minAvailable !== undefined)
    errors.push(...intOrPercentErrors("spec.minAvailable", spec.minAvailable));
  if (spec.maxUnavailable !== undefined)
    errors.push(...intOrPercentErrors("spec.maxUnavailable", spec.maxUnavailable));
  if (spec.selector) errors.push(...validateLabelSelector(spec.selector, "spec.selector"));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !POLICIES.includes(policy))
    errors.push(notSupported("spec.unhealthyPodEvictionPolicy", policy, POLICIES));
  const status = pdb.status;
  if (status)
    for (const key of [
      "disruptionsAllowed",
      "currentHealthy",
      "desiredHealthy",
      "expectedPods",
    ] as const) {
      const n = status[key];
      if (typeof n === "number" && n < 0)
        errors.push(invalidValue(`status.${key}`, n, "must be greater than or equal to 0"));
    }
  return errors;
}
