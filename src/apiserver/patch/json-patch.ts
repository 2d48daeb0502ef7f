/**
 * RFC 6902 JSON patch (`application/json-patch+json`) with kube-apiserver's
 * outcomes (`handlers/patch.go`, evanphx/json-patch): a body that is not a list of
 * operation objects is a 400; an operation that does not apply (unknown op,
 * missing path, failed `test`) is a 422 whose message, exactly like kube's, does
 * not say which operation failed — the library's explanation travels as `cause`.
 */
import jsonpatch, { type Operation } from "fast-json-patch";
import {
  ApiError,
  BadRequestError,
  isObject,
  type KubeObject,
  RequestEntityTooLargeError,
} from "../../api/index.js";
import { goJsonTypeName } from "./json-value.js";

/** kube's `maxJSONPatchOperations`. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** What `NewGenericServerResponse(422, ...)` says, whatever the underlying error. */
export const PATCH_REJECTED_MESSAGE =
  "the server rejected our request due to an error in our request";

/** The 422 kube returns when a patch cannot be applied to the object. */
export function patchRejected(cause: unknown): ApiError {
  return new ApiError(422, "Invalid", PATCH_REJECTED_MESSAGE, {}, { cause });
}

export function applyJsonPatch(current: KubeObject, patch: unknown): KubeObject {
  // encoding/json decodes `null` into an empty patch.
  if (patch === null) return structuredClone(current);
  if (!Array.isArray(patch)) {
    throw new BadRequestError(
      `json: cannot unmarshal ${goJsonTypeName(patch)} into Go value of type jsonpatch.Patch`,
    );
  }
  for (const op of patch) {
    if (op !== null && !isObject(op)) {
      throw new BadRequestError(
        `json: cannot unmarshal ${goJsonTypeName(op)} into Go value of type jsonpatch.Operation`,
      );
    }
  }
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new RequestEntityTooLargeError(
      `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`,
    );
  }
  let result: unknown;
  try {
    // validate = true: every operation is checked against the document; no mutation of `current`.
    result = jsonpatch.applyPatch(current, patch as Operation[], true, false).newDocument;
  } catch (e) {
    throw patchRejected(e);
  }
  if (!isObject(result)) throw patchRejected(new Error("the patched document is not an object"));
  return result as KubeObject;
}
