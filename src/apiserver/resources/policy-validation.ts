/**
 * kube's policy validation (pkg/apis/policy/validation) for PodDisruptionBudget,
 * with its field paths and messages: `minAvailable` and `maxUnavailable` not
 * both, each a non-negative integer or a percentage of at most 100%, a valid
 * label selector (apimachinery's ValidateLabelSelector), a known
 * `unhealthyPodEvictionPolicy`, and non-negative status counts.
 */
import {
  type FieldError,
  forbiddenValue,
  invalidValue,
  type KubeObject,
  type LabelSelector,
  labelValue,
  notMoreThan100PercentErrors,
  type PodDisruptionBudget,
  positiveIntOrPercentErrors,
  qualifiedName,
  requiredValue,
} from "../../api/index.js";
import { notSupported } from "./batch-validation.js";

const POLICIES = ["AlwaysAllow", "IfHealthyBudget"];

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent, as kube checks both budget fields. */
function intOrPercentErrors(field: string, v: unknown): FieldError[] {
  return [...positiveIntOrPercentErrors(field, v), ...notMoreThan100PercentErrors(field, v)];
}

/** apimachinery's ValidateLabelSelector. */
export function labelSelectorErrors(sel: LabelSelector | undefined, at: string): FieldError[] {
  if (!sel) return [];
  const errors: FieldError[] = [];
  (sel.matchExpressions ?? []).forEach((req, i) => {
    const path = `${at}.matchExpressions[${i}]`;
    const values = req.values ?? [];
    if (req.operator === "In" || req.operator === "NotIn") {
      if (values.length === 0)
        errors.push(
          requiredValue(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
        );
    } else if (req.operator === "Exists" || req.operator === "DoesNotExist") {
      if (values.length > 0)
        errors.push(
          forbiddenValue(
            `${path}.values`,
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
    } else
      errors.push(invalidValue(`${path}.operator`, req.operator, "not a valid selector operator"));
    for (const why of qualifiedName(req.key ?? ""))
      errors.push(invalidValue(`${path}.key`, req.key, why));
    values.forEach((v, j) => {
      for (const why of labelValue(v)) errors.push(invalidValue(`${path}.values[${j}]`, v, why));
    });
  });
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    for (const why of qualifiedName(k)) errors.push(invalidValue(`${at}.matchLabels`, k, why));
    for (const why of labelValue(v)) errors.push(invalidValue(`${at}.matchLabels`, v, why));
  }
  return errors;
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
  errors.push(...labelSelectorErrors(spec.selector, "spec.selector"));
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
