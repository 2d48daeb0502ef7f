/**
 * The policy kinds of a namespace: v1 ResourceQuota (`quota`; spec.hard,
 * scopes, scopeSelector; status.hard and status.used written by the quota
 * controller and by quota admission) and v1 LimitRange (`limits`; per-type
 * min, max, defaults, ratio), with kubectl's columns. Quantities are stored in
 * kube's canonical form. Enforcement is admission's (`admission/limit-ranger.ts`,
 * `admission/resource-quota.ts`); usage accounting is `api/quota-usage.ts`.
 */
import type { KubeObject, ResourceQuota } from "../../api/index.js";
import { canonicalQuantity } from "../../api/index.js";
import { limitRangeSchema, resourceQuotaSchema } from "../schemas/index.js";
import {
  canonicalQuota,
  defaultLimitRange,
  validateLimitRange,
  validateResourceQuota,
} from "./quota-validation.js";
import { builtinType } from "./resource-type.js";
import { ageColumn } from "./table.js";

const shown = (q: string | number | undefined) => (q === undefined ? "0" : canonicalQuantity(q));

/**
 * kubectl's REQUEST or LIMIT cell: `name: used/hard` for every hard resource,
 * sorted by name; `limits.*` resources go to LIMIT, the rest to REQUEST.
 */
function quotaCell(limits: boolean) {
  return (o: KubeObject) => {
    const q = o as ResourceQuota;
    return Object.keys(q.spec?.hard ?? {})
      .sort()
      .filter((r) => r.startsWith("limits.") === limits)
      .map((r) => `${r}: ${shown(q.status?.used?.[r])}/${shown(q.status?.hard?.[r])}`)
      .join(", ");
  };
}

export const resourceQuotaType = builtinType({
  group: "",
  version: "v1",
  kind: "ResourceQuota",
  plural: "resourcequotas",
  singular: "resourcequota",
  shortNames: ["quota"],
  status: true,
  schema: resourceQuotaSchema,
  columns: [
    ageColumn,
    {
      name: "Request",
      type: "string",
      description:
        "Request represents a minimum amount of cpu/memory that a container may consume.",
      cell: quotaCell(false),
    },
    {
      name: "Limit",
      type: "string",
      description:
        "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.",
      cell: quotaCell(true),
    },
  ],
  prepareForCreate: canonicalQuota,
  prepareForUpdate: canonicalQuota,
  validate: validateResourceQuota,
});

export const limitRangeType = builtinType({
  group: "",
  version: "v1",
  kind: "LimitRange",
  plural: "limitranges",
  singular: "limitrange",
  shortNames: ["limits"],
  schema: limitRangeSchema,
  ownColumns: true,
  columns: [
    {
      name: "Name",
      type: "string",
      format: "name",
      description: "Name must be unique within a namespace.",
      cell: (o) => o.metadata.name ?? "",
    },
    {
      name: "Created At",
      type: "date",
      description:
        "CreationTimestamp is a timestamp representing the server time when this object was created.",
      cell: (o) => o.metadata.creationTimestamp ?? "",
    },
  ],
  prepareForCreate: defaultLimitRange,
  prepareForUpdate: defaultLimitRange,
  validate: (obj) => validateLimitRange(obj),
});

/** The policy kinds, in discovery order. */
export const QUOTA_TYPES = [resourceQuotaType, limitRangeType];
