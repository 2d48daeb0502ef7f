/**
 * The label and field selectors of list, watch and deletecollection requests,
 * compiled into one predicate over objects.
 */
import { BadRequestError } from "../../api/errors.js";
import { parseFieldSelector, parseLabelSelector } from "../../api/selectors.js";
import type { KubeObject } from "../../api/types.js";
import type { ResourceType } from "../resources/resource-type.js";

export function fieldsOf(t: ResourceType, obj: KubeObject): Record<string, string> {
  return {
    "metadata.name": obj.metadata.name ?? "",
    ...(t.namespaced ? { "metadata.namespace": obj.metadata.namespace ?? "" } : {}),
    ...(t.selectableFields?.(obj) ?? {}),
  };
}

/** Undefined when the query selects everything. */
export function selectorFilter(
  t: ResourceType,
  query: URLSearchParams,
): ((obj: KubeObject) => boolean) | undefined {
  const labels = parseLabelSelector(query.get("labelSelector") ?? undefined);
  const fields = parseFieldSelector(query.get("fieldSelector") ?? undefined);
  if (labels.empty && fields.empty) return undefined;
  if (!fields.empty) {
    // Reject unknown field labels up front, with an object that has every selectable field.
    const sample = fieldsOf(t, { apiVersion: "", kind: "", metadata: {} });
    for (const r of fields.requirements) {
      if (!(r.key in sample) && !t.selectableFields) {
        throw new BadRequestError(`field label not supported: ${r.key}`);
      }
    }
  }
  return (obj) => {
    if (!labels.empty && !labels.matches((k) => obj.metadata.labels?.[k])) return false;
    if (!fields.empty) {
      const values = fieldsOf(t, obj);
      if (!fields.matches((k) => values[k])) return false;
    }
    return true;
  };
}
