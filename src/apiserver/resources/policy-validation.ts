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
  type IntOrString,
  invalidValue,
  type KubeObject,
  type LabelSelector,
  labelValue,
  type PodDisruptionBudget,
  qualifiedName,
  requiredValue,
} from "../../api/index.js";
import { notSupported } from "./batch-validation.js";

const PERCENT = /^[0-9]+%$/;
const PERCENT_MESSAGE =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const POLICIES = ["AlwaysAllow", "IfHealthyBudget"];

/**
 * Go renders an IntOrString bad value with `%#v` (its String() has a pointer
 * receiver), so kube's messages read `intstr.IntOrString{Type:1, …}`.
 */
export function goIntOrString(v: IntOrString): string {
  return typeof v === "number"
    ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`
    : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`;
}

function intOrStringInvalid(field: string, v: IntOrString, why: string): FieldError {
  return {
    reason: "FieldValueInvalid",
    field,
    detail: `Invalid value: ${goIntOrString(v)}: ${why}`,
  };
}

/** apps validation's ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
function intOrPercentErrors(field: string, v: unknown): FieldError[] {
  if (typeof v === "number")
    return v < 0 ? [invalidValue(field, v, "must be greater than or equal to 0")] : [];
  if (typeof v !== "string")
    return [invalidValue(field, v, "must be an integer or percentage (e.g '5%')")];
  if (!PERCENT.test(v)) return [intOrStringInvalid(field, v, PERCENT_MESSAGE)];
  if (Number.parseInt(v, 10) > 100)
    return [intOrStringInvalid(field, v, "must not be greater than 100%")];
  return [];
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
