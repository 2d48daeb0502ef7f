/**
 * The `autoscaling/v1` Scale view of a custom object with a scale subresource:
 * `spec.replicas` and `status.replicas` read from the CRD's replica paths (0
 * when absent), `status.selector` from its labelSelectorPath; and the write
 * back of a Scale's `spec.replicas` into the object. Paths are kube's simple
 * JSON paths (`.spec.replicas`).
 */
import { type FieldError, invalidValue, isObject, type KubeObject } from "../../api/index.js";
import type { ScaleSubresource } from "../resources/resource-type.js";

export interface Scale extends KubeObject {
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

function segments(path: string): string[] {
  return path
    .replace(/^\./, "")
    .split(".")
    .filter((s) => s !== "");
}

function lookup(obj: unknown, path: string): unknown {
  let node = obj;
  for (const key of segments(path)) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

function replicasAt(obj: KubeObject, path: string): number {
  const v = lookup(obj, path);
  return typeof v === "number" && Number.isInteger(v) ? v : 0;
}

/** The Scale of `obj`, with the object's name, namespace, uid and resourceVersion. */
export function scaleOf(obj: KubeObject, paths: ScaleSubresource): Scale {
  const meta = obj.metadata;
  const selector = paths.selector
    ? paths.selector(obj)
    : paths.labelSelectorPath
      ? lookup(obj, paths.labelSelectorPath)
      : undefined;
  const specReplicas = replicasAt(obj, paths.specReplicasPath);
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: {
      name: meta.name,
      ...(meta.namespace ? { namespace: meta.namespace } : {}),
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: specReplicas !== 0 ? { replicas: specReplicas } : {},
    status: {
      replicas: replicasAt(obj, paths.statusReplicasPath),
      ...(typeof selector === "string" && selector !== "" ? { selector } : {}),
    },
  };
}

/** kube's `ValidateScale`: replicas is a non-negative integer. */
export function scaleErrors(scale: unknown): FieldError[] {
  const spec = isObject(scale) && isObject(scale.spec) ? scale.spec : {};
  const replicas = spec.replicas ?? 0;
  if (typeof replicas !== "number" || !Number.isInteger(replicas))
    return [invalidValue("spec.replicas", replicas, "must be an integer")];
  if (replicas < 0)
    return [invalidValue("spec.replicas", replicas, "must be greater than or equal to 0")];
  return [];
}

/** A copy of `obj` with `replicas` at the spec replicas path (intermediate objects created). */
export function withReplicas(
  obj: KubeObject,
  paths: ScaleSubresource,
  replicas: number,
): KubeObject {
  const next = structuredClone(obj);
  const keys = segments(paths.specReplicasPath);
  let node: Record<string, unknown> = next;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = replicas;
  return next;
}

/** kube's checks of a CRD's scale paths (`spec.versions[i].subresources.scale`). */
export function scalePathErrors(paths: Partial<ScaleSubresource>, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const check = (
    field: Exclude<keyof ScaleSubresource, "selector">,
    prefixes: string[],
    why: string,
  ) => {
    const v = paths[field];
    if (v === undefined || v === "") {
      if (field !== "labelSelectorPath")
        errors.push({
          reason: "FieldValueRequired",
          field: `${at}.${field}`,
          detail: "Required value",
        });
      return;
    }
    if (!/^(\.[A-Za-z0-9_-]+)+$/.test(v) || !prefixes.some((p) => v.startsWith(p)))
      errors.push(invalidValue(`${at}.${field}`, v, why));
  };
  check("specReplicasPath", [".spec."], "should be a json path under .spec");
  check("statusReplicasPath", [".status."], "should be a json path under .status");
  check(
    "labelSelectorPath",
    [".spec.", ".status."],
    "should be a json path under either .spec or .status",
  );
  return errors;
}
