/** meta/v1 `LabelSelector` and `LabelSelectorRequirement`, as kube v1.32 publishes them. */
import type { Schema } from "../../api/index.js";
import { object, str, stringList, stringMap } from "./builders.js";

export const labelSelectorRequirement: Schema = object(
  "A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.",
  {
    key: str("key is the label key that the selector applies to."),
    operator: str(
      "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist.",
    ),
    values: stringList(
      "values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.",
    ),
  },
  ["key", "operator"],
);

export const labelSelector: Schema = {
  ...object(
    "A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.",
    {
      matchExpressions: {
        type: "array",
        description:
          "matchExpressions is a list of label selector requirements. The requirements are ANDed.",
        items: labelSelectorRequirement,
        "x-kubernetes-list-type": "atomic",
      },
      matchLabels: stringMap(
        'matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels map is equivalent to an element of matchExpressions, whose key field is "key", the operator is "In", and the values array contains only "value". The requirements are ANDed.',
      ),
    },
  ),
  "x-kubernetes-map-type": "atomic",
};
