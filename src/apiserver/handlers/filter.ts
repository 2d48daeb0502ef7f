/**
 * The label and field selectors of list, watch and deletecollection requests,
 * compiled into one predicate over objects. Both are parsed, and every field
 * label checked against the kind's selectable fields, before the caller reads or
 * writes anything: a selector kube refuses is a 400 here too, never "match all".
 */

import type { KubeObject } from "../../api/index.js";
import { BadRequestError, parseFieldSelector, parseLabelSelector } from "../../api/index.js";
import type { ResourceType } from "../resources/resource-type.js";

export function fieldsOf(t: ResourceType, obj: KubeObject): Record<string, string> {
  return {
    "metadata.name": obj.metadata.name ?? "",
    ...(t.namespaced ? { "metadata.namespace": obj.metadata.namespace ?? "" } : {}),
    ...(t.selectableFields?.(obj) ?? {}),
  };
}

/** The field labels a kind supports: `selectableFields` yields the same keys for every object. */
function supportedFieldLabels(t: ResourceType): Set<string> {
  return new Set(Object.keys(fieldsOf(t, { apiVersion: "", kind: "", metadata: {} })));
}

/** Undefined when the query selects everything; throws BadRequest for a selector kube refuses. */
export function selectorFilter(
  t: ResourceType,
  query: URLSearchParams,
): ((obj: KubeObject) => boolean) | undefined {
  const labels = parseLabelSelector(query.get("labelSelector") ?? undefined);
  const fields = parseFieldSelector(query.get("fieldSelector") ?? undefined);
  if (!fields.empty) {
    const supported = supportedFieldLabels(t);
    for (const key of fields.keys) {
      // kube's ConvertFieldLabel, for built-in kinds and CRDs alike.
      if (!supported.has(key)) throw new BadRequestError(`field label not supported: ${key}`);
    }
  }
  if (labels.empty && fields.empty) return undefined;
  return (obj) => {
    if (!labels.empty && !labels.matches((k) => obj.metadata.labels?.[k])) return false;
    if (!fields.empty) {
      const values = fieldsOf(t, obj);
      if (!fields.matches((k) => values[k])) return false;
    }
    return true;
  };
}
