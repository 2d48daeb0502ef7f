/** core/v1 ResourceQuota: aggregate limits per namespace, and their enforced and used amounts. */
import type { Schema } from "../../api/index.js";
import { object, str, stringList } from "./builders.js";
import { kindSchema } from "./kind.js";
import { quantityMap } from "./volume-common.js";

const scopedResourceSelectorRequirement: Schema = object(
  "A scoped-resource selector requirement is a selector that contains values, a scope name, and an operator that relates the scope name and values.",
  {
    operator: str(
      "Represents a scope's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist.",
    ),
    scopeName: str("The name of the scope that the selector applies to."),
    values: stringList(
      "An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.",
    ),
  },
  ["scopeName", "operator"],
);

const scopeSelector: Schema = {
  ...object(
    "scopeSelector is also a collection of filters like scopes that must match each object tracked by a quota but expressed using ScopeSelectorOperator in combination with possible values. For a resource to match, both scopes AND scopeSelector (if specified in spec), must be matched.",
    {
      matchExpressions: {
        type: "array",
        description: "A list of scope selector requirements by scope of the resources.",
        items: scopedResourceSelectorRequirement,
        "x-kubernetes-list-type": "atomic",
      },
    },
  ),
  "x-kubernetes-map-type": "atomic",
};

export const resourceQuotaSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "ResourceQuota" },
  "ResourceQuota sets aggregate quota restrictions enforced per namespace",
  {
    spec: object(
      "Spec defines the desired quota. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      {
        hard: quantityMap(
          "hard is the set of desired hard limits for each named resource. More info: https://kubernetes.io/docs/concepts/policy/resource-quotas/",
        ),
        scopeSelector,
        scopes: stringList(
          "A collection of filters that must match each object tracked by a quota. If not specified, the quota matches all objects.",
        ),
      },
    ),
    status: object(
      "Status defines the actual enforced quota and its current usage. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      {
        hard: quantityMap(
          "Hard is the set of enforced hard limits for each named resource. More info: https://kubernetes.io/docs/concepts/policy/resource-quotas/",
        ),
        used: quantityMap(
          "Used is the current observed total usage of the resource in the namespace.",
        ),
      },
    ),
  },
);
