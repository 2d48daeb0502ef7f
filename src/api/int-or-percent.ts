/**
 * kube's intstr.IntOrString as rollout fields use it (`maxSurge`,
 * `maxUnavailable`): an integer or a percentage string, scaled against a total
 * as intstr.GetScaledValueFromIntOrPercent does (a percentage rounds up or down
 * as the caller asks), and the checks of ValidatePositiveIntOrPercent and
 * IsNotMoreThan100Percent with kube's messages.
 */
import { type FieldError, invalidValue } from "./errors.js";

export type IntOrString = number | string;

const PERCENT = /^[0-9]+%$/;
export const PERCENT_MESSAGE =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** The number of a valid percentage (`"25%"` → 25), else undefined. */
export function percentOf(value: IntOrString | undefined): number | undefined {
  return typeof value === "string" && PERCENT.test(value) ? Number(value.slice(0, -1)) : undefined;
}

/**
 * GetScaledValueFromIntOrPercent: an integer as is, a percentage of `total`
 * rounded up (`roundUp`) or down. Throws on a string that is no percentage, as kube errors.
 */
export function scaledValue(
  value: IntOrString | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (value === undefined) return 0;
  if (typeof value === "number") return value;
  const percent = percentOf(value);
  if (percent === undefined)
    throw new Error("invalid value for IntOrString: invalid type: string is not a percentage");
  const scaled = (percent * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** kube's getIntOrPercentValue: the percentage's number, an integer, or a string's Atoi (0 if none). */
export function intOrPercentValue(value: IntOrString | undefined): number {
  if (value === undefined) return 0;
  const percent = percentOf(value);
  if (percent !== undefined) return percent;
  if (typeof value === "number") return value;
  return /^[+-]?[0-9]+$/.test(value) ? Number(value) : 0;
}

/**
 * Go renders an IntOrString bad value with `%#v` (its String() has a pointer
 * receiver), so kube's messages read `intstr.IntOrString{Type:1, …}`.
 */
export function goIntOrString(v: IntOrString): string {
  return typeof v === "number"
    ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`
    : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`;
}

/** field.Invalid with an IntOrString as the bad value. */
function intOrStringInvalid(field: string, v: IntOrString, why: string): FieldError {
  return {
    reason: "FieldValueInvalid",
    field,
    detail: `Invalid value: ${goIntOrString(v)}: ${why}`,
  };
}

/** ValidatePositiveIntOrPercent. */
export function positiveIntOrPercentErrors(field: string, value: unknown): FieldError[] {
  if (value === undefined) return [];
  if (typeof value === "string")
    return PERCENT.test(value) ? [] : [intOrStringInvalid(field, value, PERCENT_MESSAGE)];
  if (typeof value === "number" && Number.isInteger(value))
    return value < 0 ? [invalidValue(field, value, "must be greater than or equal to 0")] : [];
  return [invalidValue(field, value, "must be an integer or percentage (e.g '5%')")];
}

/** IsNotMoreThan100Percent. */
export function notMoreThan100PercentErrors(field: string, value: unknown): FieldError[] {
  if (typeof value !== "string" || !PERCENT.test(value)) return [];
  return intOrPercentValue(value) > 100
    ? [intOrStringInvalid(field, value, "must not be greater than 100%")]
    : [];
}
