/**
 * Secret validation, as kube-apiserver's `ValidateSecret` and
 * `ValidateSecretUpdate`: every key of `data` (with `stringData` already folded
 * in, as kube's conversion does) is a config key, the decoded values total at
 * most 1 MiB, each built-in type has its required keys or annotation, `type`
 * never changes, and an `immutable: true` Secret keeps its data and stays
 * immutable.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/index.js";
import { type FieldError, forbiddenValue, invalidValue, requiredValue } from "../../api/index.js";
import { IMMUTABLE_MESSAGE, keyErrors, MAX_DATA_BYTES, tooLarge } from "./config-map-validation.js";

type Data = Record<string, string>;

const SERVICE_ACCOUNT_NAME = "kubernetes.io/service-account.name";

const dataOf = (o: KubeObject): Data => (o.data ?? {}) as Data;

/** The Go `encoding/json` verdict on a value meant to be a JSON object, or undefined when it is one. */
function jsonObjectError(base64: string): string | undefined {
  const text = Buffer.from(base64, "base64").toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  if (value === null || typeof value === "object") {
    if (!Array.isArray(value)) return undefined;
    return "json: cannot unmarshal array into Go value of type map[string]interface {}";
  }
  const goType = typeof value === "boolean" ? "bool" : typeof value;
  return `json: cannot unmarshal ${goType} into Go value of type map[string]interface {}`;
}

/** A required key whose value must be a JSON object (the docker config types). */
function dockerConfig(data: Data, key: string): FieldError[] {
  if (!Object.hasOwn(data, key)) return [requiredValue(`data[${key}]`)];
  const why = jsonObjectError(data[key]!);
  return why === undefined ? [] : [invalidValue(`data[${key}]`, "<secret contents redacted>", why)];
}

/** The keys and annotations each built-in Secret type requires. */
function typeErrors(obj: KubeObject, data: Data): FieldError[] {
  switch (obj.type) {
    case "kubernetes.io/service-account-token":
      return obj.metadata.annotations?.[SERVICE_ACCOUNT_NAME]
        ? []
        : [requiredValue(`metadata.annotations[${SERVICE_ACCOUNT_NAME}]`)];
    case "kubernetes.io/dockercfg":
      return dockerConfig(data, ".dockercfg");
    case "kubernetes.io/dockerconfigjson":
      return dockerConfig(data, ".dockerconfigjson");
    case "kubernetes.io/basic-auth":
      // Either may be empty, but one of the two must be there.
      return Object.hasOwn(data, "username") || Object.hasOwn(data, "password")
        ? []
        : [requiredValue("data[username]"), requiredValue("data[password]")];
    case "kubernetes.io/ssh-auth":
      return data["ssh-privatekey"] ? [] : [requiredValue("data[ssh-privatekey]")];
    case "kubernetes.io/tls":
      return ["tls.crt", "tls.key"]
        .filter((k) => !Object.hasOwn(data, k))
        .map((k) => requiredValue(`data[${k}]`));
    default:
      // Opaque, bootstrap.kubernetes.io/token and custom types: kube checks nothing more.
      return [];
  }
}

export function validateSecret(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const data = dataOf(obj);
  const errors: FieldError[] = [];
  if (old) {
    if (obj.type !== old.type) errors.push(invalidValue("type", obj.type, "field is immutable"));
    if (old.immutable === true) {
      if (obj.immutable !== true) errors.push(forbiddenValue("immutable", IMMUTABLE_MESSAGE));
      if (!isDeepStrictEqual(data, dataOf(old)))
        errors.push(forbiddenValue("data", IMMUTABLE_MESSAGE));
    }
  }
  errors.push(...keyErrors("data", Object.keys(data)));
  let size = 0;
  for (const value of Object.values(data)) size += Buffer.byteLength(value, "base64");
  if (size > MAX_DATA_BYTES) errors.push(tooLarge("data"));
  errors.push(...typeErrors(obj, data));
  return errors;
}
