/**
 * policy/v1 PodDisruptionBudget: schema, kube's columns (MIN AVAILABLE, MAX
 * UNAVAILABLE, ALLOWED DISRUPTIONS), short name `pdb`, the status subresource
 * (the disruption controller's and the eviction handler's), an empty status on
 * create as kube's strategy sets, and validation (`policy-validation.ts`).
 * The Eviction it guards is a Pod subresource (`pod-eviction.ts`).
 */
import type { PodDisruptionBudget } from "../../api/index.js";
import { podDisruptionBudgetSchema } from "../schemas/index.js";
import { validatePodDisruptionBudget } from "./policy-validation.js";
import { builtinType, type TableColumn } from "./resource-type.js";

const orNA = (v: number | string | undefined) => (v === undefined ? "N/A" : String(v));

export const PDB_COLUMNS: TableColumn[] = [
  {
    name: "Min Available",
    type: "string",
    description: "The minimum number of pods that must be available.",
    cell: (o) => orNA((o as PodDisruptionBudget).spec?.minAvailable),
  },
  {
    name: "Max Unavailable",
    type: "string",
    description: "The maximum number of pods that may be unavailable.",
    cell: (o) => orNA((o as PodDisruptionBudget).spec?.maxUnavailable),
  },
  {
    name: "Allowed Disruptions",
    type: "integer",
    description: "Calculated number of pods that may be disrupted at this time.",
    cell: (o) => (o as PodDisruptionBudget).status?.disruptionsAllowed ?? 0,
  },
];

export const podDisruptionBudgetType = builtinType({
  group: "policy",
  version: "v1",
  kind: "PodDisruptionBudget",
  plural: "poddisruptionbudgets",
  singular: "poddisruptionbudget",
  shortNames: ["pdb"],
  status: true,
  schema: podDisruptionBudgetSchema,
  columns: PDB_COLUMNS,
  prepareForCreate(obj) {
    // kube's strategy: a new budget starts with a zero status (nothing may be disrupted).
    (obj as PodDisruptionBudget).status = {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    };
  },
  validate: (obj) => validatePodDisruptionBudget(obj),
});

export const POLICY_TYPES = [podDisruptionBudgetType];
