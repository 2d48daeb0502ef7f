/**
 * Strategic merge patch failures (apimachinery `mergepatch` errors) and the Status
 * each becomes. kube-apiserver's `interpretStrategicMergePatchError` turns the
 * format errors into 400s and "lists of lists" / "retainKeys mismatch" into its
 * generic 422; everything else it lets through as a 500 — here those are 400s,
 * since they describe a bad patch, not a server fault.
 */
import { type ApiError, BadRequestError } from "../../api/index.js";
import { patchRejected } from "./json-patch.js";
import { goFormat, goTypeName } from "./json-value.js";

export class StrategicPatchError extends Error {
  constructor(
    message: string,
    readonly code: 400 | 422 = 400,
  ) {
    super(message);
    this.name = "StrategicPatchError";
  }

  toApiError(): ApiError {
    return this.code === 422
      ? patchRejected(this)
      : new BadRequestError(this.message, { cause: this });
  }
}

export const badPatchFormatForPrimitiveList = () =>
  new StrategicPatchError("invalid patch format of primitive list");
export const badPatchFormatForRetainKeys = () =>
  new StrategicPatchError("invalid patch format of retainKeys");
export const badPatchFormatForSetElementOrderList = () =>
  new StrategicPatchError("invalid patch format of setElementOrder list");
export const noListOfLists = () => new StrategicPatchError("lists of lists are not supported", 422);

export function noMergeKey(m: unknown, key: string): StrategicPatchError {
  return new StrategicPatchError(`map: ${goFormat(m)} does not contain declared merge key: ${key}`);
}

/** `mergepatch.ErrBadArgType`: `expected` is only used for its type name. */
export function badArgType(expected: "map" | "slice", actual: unknown): StrategicPatchError {
  const want = expected === "map" ? "map[string]interface {}" : "[]interface {}";
  return new StrategicPatchError(`expected a ${want}, but received a ${goTypeName(actual)}`);
}

export function badPatchType(directive: unknown, m: unknown): StrategicPatchError {
  return new StrategicPatchError(`unknown patch type: ${String(directive)} in map: ${goFormat(m)}`);
}
