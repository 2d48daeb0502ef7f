/**
 * The REST paths of one resource as kube publishes them: collection (list,
 * create, deletecollection), item (read, replace, patch, delete), the
 * all-namespaces list of a namespaced kind, and `/status`, `/scale`.
 */
import { componentName, operationGroupVersion, operationTag, SCALE_COMPONENT } from "./names.js";
import { buildOperation, type OperationTarget } from "./operations.js";
import { nameParam, namespaceParam, pretty } from "./parameters.js";
import type { KubeAction, OpenApiPathItem, OpenApiResource } from "./types.js";

const SCALE_GVK = { group: "autoscaling", version: "v1", kind: "Scale" };

function pathItem(
  actions: KubeAction[],
  target: OperationTarget,
  parameters: OpenApiPathItem["parameters"],
): OpenApiPathItem {
  const item: OpenApiPathItem = { parameters };
  for (const action of actions) {
    const op = buildOperation(action, target);
    if (action === "list") item.get = op;
    else if (action === "deletecollection") item.delete = op;
    else item[action] = op;
  }
  return item;
}

/** Every path of `r`, keyed by URL template (`/api/v1/namespaces/{namespace}/configmaps/{name}`). */
export function resourcePaths(r: OpenApiResource): Record<string, OpenApiPathItem> {
  const kindComponent = componentName(r, r.strategicMergePatch);
  const base: OperationTarget = {
    kind: r.kind,
    gvk: { group: r.group, version: r.version, kind: r.kind },
    bodyComponent: kindComponent,
    listComponent: `${kindComponent}List`,
    idSuffix: r.namespaced ? `Namespaced${r.kind}` : r.kind,
    operationGroupVersion: operationGroupVersion(r.group, r.version),
    tag: operationTag(r.group, r.version),
    strategicMergePatch: r.strategicMergePatch,
  };
  const prefix = r.group === "" ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const scope = r.namespaced ? `${prefix}/namespaces/{namespace}` : prefix;
  const collection = `${scope}/${r.plural}`;
  const item = `${collection}/{name}`;
  const scoped = r.namespaced ? [namespaceParam] : [];
  const itemParams = [nameParam(r.kind), ...scoped, pretty];

  const paths: Record<string, OpenApiPathItem> = {
    [collection]: pathItem(r.readOnly ? ["list"] : ["list", "post", "deletecollection"], base, [
      ...scoped,
      pretty,
    ]),
    [item]: pathItem(r.readOnly ? ["get"] : ["get", "put", "patch", "delete"], base, itemParams),
  };
  if (r.namespaced) {
    paths[`${prefix}/${r.plural}`] = pathItem(
      ["list"],
      { ...base, idSuffix: `${r.kind}ForAllNamespaces` },
      [pretty],
    );
  }
  if (r.subresources.includes("status")) {
    const status = { ...base, idSuffix: `${base.idSuffix}Status`, subresource: "status" };
    paths[`${item}/status`] = pathItem(["get", "put", "patch"], status, itemParams);
  }
  if (r.subresources.includes("scale")) {
    const scale: OperationTarget = {
      ...base,
      gvk: SCALE_GVK,
      bodyComponent: SCALE_COMPONENT,
      idSuffix: `${base.idSuffix}Scale`,
      subresource: "scale",
    };
    paths[`${item}/scale`] = pathItem(["get", "put", "patch"], scale, itemParams);
  }
  return paths;
}
