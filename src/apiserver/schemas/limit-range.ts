/** core/v1 LimitRange: per-container, per-pod and per-claim bounds and defaults in a namespace. */
import type { Schema } from "../../api/index.js";
import { object, str } from "./builders.js";
import { kindSchema } from "./kind.js";
import { quantityMap } from "./volume-common.js";

const limitRangeItem: Schema = object(
  "LimitRangeItem defines a min/max usage limit for any resource that matches on kind.",
  {
    default: quantityMap(
      "Default resource requirement limit value by resource name if resource limit is omitted.",
    ),
    defaultRequest: quantityMap(
      "DefaultRequest is the default resource requirement request value by resource name if resource request is omitted.",
    ),
    max: quantityMap("Max usage constraints on this kind by resource name."),
    maxLimitRequestRatio: quantityMap(
      "MaxLimitRequestRatio if specified, the named resource must have a request and limit that are both non-zero where limit divided by request is less than or equal to the enumerated value; this represents the max burst for the named resource.",
    ),
    min: quantityMap("Min usage constraints on this kind by resource name."),
    type: str("Type of resource that this limit applies to."),
  },
  ["type"],
);

export const limitRangeSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "LimitRange" },
  "LimitRange sets resource usage limits for each kind of resource in a Namespace.",
  {
    spec: object(
      "Spec defines the limits enforced. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      {
        limits: {
          type: "array",
          description: "Limits is the list of LimitRangeItem objects that are enforced.",
          items: limitRangeItem,
          "x-kubernetes-list-type": "atomic",
        },
      },
      ["limits"],
    ),
  },
);
