/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) as
 * kube-apiserver applies it to built-in kinds (apimachinery
 * `StrategicMergeMapPatch`), with the merge strategy of each field read from the
 * schema's `x-kubernetes-patch-*` extensions. Fields without a schema merge like a
 * JSON merge patch (lists replace), which is also what a custom kind gets.
 */

import type { Schema } from "../../api/index.js";
import { BadRequestError, isObject, type KubeObject } from "../../api/index.js";
import { goJsonTypeName } from "./json-value.js";
import { StrategicPatchError } from "./strategic-errors.js";
import { mergeMap } from "./strategic-map.js";

export function applyStrategicMergePatch(
  current: KubeObject,
  patch: unknown,
  schema: Schema | undefined,
): KubeObject {
  // encoding/json decodes `null` into an empty map: nothing to do.
  if (patch === null) return structuredClone(current);
  if (!isObject(patch)) {
    throw new BadRequestError(
      `json: cannot unmarshal ${goJsonTypeName(patch)} into Go value of type map[string]interface {}`,
    );
  }
  try {
    return mergeMap(structuredClone(current), structuredClone(patch), schema) as KubeObject;
  } catch (e) {
    if (e instanceof StrategicPatchError) throw e.toApiError();
    throw e;
  }
}
