/**
 * RFC 7386 JSON merge patch (`application/merge-patch+json`): objects merge
 * recursively, `null` deletes a key, anything else (arrays included) replaces.
 * A body that is not an object is a 400, as evanphx/json-patch's
 * `ErrBadJSONPatch` is in kube-apiserver.
 */
import { BadRequestError, isObject, type KubeObject } from "../../api/index.js";
import { getKey, type JsonMap, setKey } from "./json-value.js";

export function applyMergePatch(current: KubeObject, patch: unknown): KubeObject {
  if (!isObject(patch)) throw new BadRequestError("Invalid JSON Patch");
  return mergeInto(structuredClone(current), patch) as KubeObject;
}

/** RFC 7386 `MergePatch(target, patch)` for an object patch, modifying `target` (a copy the caller owns). */
function mergeInto(target: JsonMap, patch: JsonMap): JsonMap {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete target[key];
    } else if (isObject(value)) {
      const current = getKey(target, key);
      setKey(target, key, mergeInto(isObject(current) ? current : {}, value));
    } else {
      setKey(target, key, structuredClone(value));
    }
  }
  return target;
}
