/**
 * The names kube gives things in OpenAPI v3: document paths (`api/v1`,
 * `apis/g/v`), component names (`io.k8s.api.core.v1.ConfigMap`, and for custom
 * kinds the reversed group: `com.example.stable.v1.CronTab`), operation ids and tags.
 */

/** Component-name prefixes of built-in groups whose Go package is not `k8s.io/api/<group>`. */
const BUILTIN_PACKAGES: Record<string, string> = {
  "": "io.k8s.api.core",
  "apiextensions.k8s.io": "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions",
  "apiregistration.k8s.io": "io.k8s.kube-aggregator.pkg.apis.apiregistration",
};

export const OBJECT_META_COMPONENT = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
export const LIST_META_COMPONENT = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
export const STATUS_COMPONENT = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
export const DELETE_OPTIONS_COMPONENT = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
export const PATCH_COMPONENT = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
export const SCALE_COMPONENT = "io.k8s.api.autoscaling.v1.Scale";

/** `api/v1` or `apis/<group>/<version>`: the key in the index and the URL tail. */
export function groupVersionPath(group: string, version: string): string {
  return group === "" ? `api/${version}` : `apis/${group}/${version}`;
}

/** `io.k8s.api.core.v1.ConfigMap`, `com.example.stable.v1.CronTab`. */
export function componentName(
  r: { group: string; version: string; kind: string },
  builtin: boolean,
): string {
  const pkg = builtin
    ? (BUILTIN_PACKAGES[r.group] ?? `io.k8s.api.${r.group.split(".")[0]}`)
    : r.group.split(".").reverse().join(".");
  return `${pkg}.${r.version}.${r.kind}`;
}

/** `#/components/schemas/<name>`. */
export function componentRef(name: string): string {
  return `#/components/schemas/${name}`;
}

function groupWords(group: string): string[] {
  if (group === "") return ["core"];
  return group
    .replace(/\.k8s\.io$/, "")
    .split(/[.-]/)
    .filter((w) => w !== "");
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `CoreV1`, `CoordinationV1`, `StableExampleComV1`: the middle of an operation id. */
export function operationGroupVersion(group: string, version: string): string {
  return groupWords(group).map(capitalize).join("") + capitalize(version);
}

/** `core_v1`, `stableExampleCom_v1`: the operation tag. */
export function operationTag(group: string, version: string): string {
  const [first = "", ...rest] = groupWords(group);
  return `${first}${rest.map(capitalize).join("")}_${version}`;
}
