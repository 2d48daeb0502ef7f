/**
 * intstr.IntOrString as rolling updates read it (`maxUnavailable: 1` or
 * `"25%"`): apimachinery's GetScaledValueFromIntOrPercent and the validation
 * helpers of pkg/apis/apps/validation with their messages.
 */
import { type FieldError, invalidValue } from "./errors.js";

export type IntOrPercent = number | string;

const PERCENT = /^[0-9]+%$/;

/** The value scaled against `total`, rounding up or down as asked; undefined when malformed. */
export function scaledValue(
  value: IntOrPercent | undefined,
  total: number,
  roundUp: boolean,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number") return value;
  if (!PERCENT.test(value)) return undefined;
  const scaled = (Number.parseInt(value.slice(0, -1), 10) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** getIntOrPercentValue: the number, or the percentage's number; 0 when malformed. */
export function intOrPercentValue(value: IntOrPercent | undefined): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && PERCENT.test(value))
    return Number.parseInt(value.slice(0, -1), 10);
  return 0;
}

/** ValidatePositiveIntOrPercent. */
export function positiveIntOrPercentErrors(field: string, value: unknown): FieldError[] {
  if (value === undefined) return [];
  if (typeof value === "string")
    return PERCENT.test(value)
      ? []
      : [
          invalidValue(
            field,
            value,
            "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
          ),
        ];
  if (typeof value === "number" && Number.isInteger(value))
    return value < 0 ? [invalidValue(field, value, "must be greater than or equal to 0")] : [];
  return [invalidValue(field, value, "must be an integer or percentage (e.g '5%')")];
}

/** IsNotMoreThan100Percent. */
export function notMoreThan100PercentErrors(field: string, value: unknown): FieldError[] {
  if (typeof value !== "string" || !PERCENT.test(value)) return [];
  return intOrPercentValue(value) > 100
    ? [invalidValue(field, value, "must not be greater than 100%")]
    : [];
}
