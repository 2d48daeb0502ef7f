/**
 * ConfigMap validation, as kube-apiserver's `ValidateConfigMap` and
 * `ValidateConfigMapUpdate`: every key of `data` and `binaryData` is a config key
 * (it becomes a file name in a volume), no key is in both, the values total at most
 * 1 MiB, and an `immutable: true` ConfigMap keeps its data and stays immutable.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/index.js";
import { configMapKey, type FieldError, forbiddenValue, invalidValue } from "../../api/index.js";

/** kube's `MaxSecretSize`, which also bounds a ConfigMap's values. */
export const MAX_DATA_BYTES = 1024 * 1024;

export const IMMUTABLE_MESSAGE = "field is immutable when `immutable` is set";

type StringMap = Record<string, string>;

const mapOf = (v: unknown): StringMap => (v ?? {}) as StringMap;

/** `Too long: must have at most 1048576 bytes` on `field` (`[]` is the whole object). */
export function tooLarge(field: string): FieldError {
  return {
    reason: "FieldValueTooLong",
    field,
    detail: `Too long: must have at most ${MAX_DATA_BYTES} bytes`,
  };
}

/** The errors of each key that is not a valid config key, at `<bag>[<key>]`. */
export function keyErrors(bag: string, keys: Iterable<string>): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of keys)
    for (const why of configMapKey(key)) errors.push(invalidValue(`${bag}[${key}]`, key, why));
  return errors;
}

export function validateConfigMap(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const data = mapOf(obj.data);
  const binaryData = mapOf(obj.binaryData);
  const errors: FieldError[] = [];
  if (old?.immutable === true) {
    if (obj.immutable !== true) errors.push(forbiddenValue("immutable", IMMUTABLE_MESSAGE));
    if (!isDeepStrictEqual(data, mapOf(old.data)))
      errors.push(forbiddenValue("data", IMMUTABLE_MESSAGE));
    if (!isDeepStrictEqual(binaryData, mapOf(old.binaryData)))
      errors.push(forbiddenValue("binaryData", IMMUTABLE_MESSAGE));
  }
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    errors.push(...keyErrors("data", [key]));
    if (Object.hasOwn(binaryData, key))
      errors.push(invalidValue(`data[${key}]`, key, "duplicate of key present in binaryData"));
    size += Buffer.byteLength(value, "utf8");
  }
  errors.push(...keyErrors("binaryData", Object.keys(binaryData)));
  for (const value of Object.values(binaryData)) size += Buffer.byteLength(value, "base64");
  // kube reports the size on the path "" of the whole object, printed `[]`.
  if (size > MAX_DATA_BYTES) errors.push(tooLarge("[]"));
  return errors;
}
