/**
 * policy/v1 PodDisruptionBudget (spec, status with the DisruptionAllowed
 * condition) and the Eviction body of `pods/eviction`, as kube v1.32 publishes them.
 */
import type { Schema } from "../../api/index.js";
import { int32, int64, object, str } from "./builders.js";
import { metaCondition as condition } from "./condition.js";
import { kindSchema } from "./kind.js";
import { labelSelector } from "./label-selector.js";
import { intOrString } from "./pod-probe.js";

const spec: Schema = object("PodDisruptionBudgetSpec is a description of a PodDisruptionBudget.", {
  maxUnavailable: intOrString(
    'An eviction is allowed if at most "maxUnavailable" pods selected by "selector" are unavailable after the eviction, i.e. even in absence of the evicted pod. For example, one can prevent all voluntary evictions by specifying 0. This is a mutually exclusive setting with "minAvailable".',
  ),
  minAvailable: intOrString(
    'An eviction is allowed if at least "minAvailable" pods selected by "selector" will still be available after the eviction, i.e. even in the absence of the evicted pod.  So for example you can prevent all voluntary evictions by specifying "100%".',
  ),
  selector: {
    ...labelSelector,
    description:
      "Label query over pods whose evictions are managed by the disruption budget. A null selector will match no pods, while an empty ({}) selector will select all pods within the namespace.",
    "x-kubernetes-patch-strategy": "replace",
  },
  unhealthyPodEvictionPolicy: str(
    'UnhealthyPodEvictionPolicy defines the criteria for when unhealthy pods should be considered for eviction. Valid policies are IfHealthyBudget and AlwaysAllow. If no policy is specified, the default behavior will be used, which corresponds to the IfHealthyBudget policy.\n\nPossible enum values:\n - `"AlwaysAllow"` policy means that all running pods (status.phase="Running"), but not yet healthy are considered disrupted and can be evicted regardless of whether the criteria in a PDB is met.\n - `"IfHealthyBudget"` policy means that running pods (status.phase="Running"), but not yet healthy can be evicted only if the guarded application is not disrupted (status.currentHealthy is at least equal to status.desiredHealthy).',
    { enum: ["AlwaysAllow", "IfHealthyBudget"] },
  ),
});

const status: Schema = object(
  "PodDisruptionBudgetStatus represents information about the status of a PodDisruptionBudget. Status may trail the actual state of a system.",
  {
    conditions: {
      type: "array",
      description:
        "Conditions contain conditions for PDB. The disruption controller sets the DisruptionAllowed condition.",
      items: condition,
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["type"],
      "x-kubernetes-patch-strategy": "merge",
      "x-kubernetes-patch-merge-key": "type",
    },
    currentHealthy: int32("current number of healthy pods"),
    desiredHealthy: int32("minimum desired number of healthy pods"),
    disruptedPods: {
      type: "object",
      description:
        "DisruptedPods contains information about pods whose eviction was processed by the API server eviction subresource handler but has not yet been observed by the PodDisruptionBudget controller.",
      additionalProperties: { type: "string", format: "date-time" },
    },
    disruptionsAllowed: int32("Number of pod disruptions that are currently allowed."),
    expectedPods: int32("total number of pods counted by this disruption budget"),
    observedGeneration: int64(
      "Most recent generation observed when updating this PDB status. DisruptionsAllowed and other status information is valid only if observedGeneration equals to PDB's object generation.",
    ),
  },
  ["disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"],
);

export const podDisruptionBudgetSchema: Schema = kindSchema(
  { group: "policy", version: "v1", kind: "PodDisruptionBudget" },
  "PodDisruptionBudget is an object to define the max disruption that can be caused to a collection of pods",
  {
    spec: {
      ...spec,
      description: "Specification of the desired behavior of the PodDisruptionBudget.",
    },
    status: { ...status, description: "Most recently observed status of the PodDisruptionBudget." },
  },
);

/** The Eviction body; `deleteOptions` is checked as any DeleteOptions is. */
export const evictionSchema: Schema = kindSchema(
  { group: "policy", version: "v1", kind: "Eviction" },
  "Eviction evicts a pod from its node subject to certain policies and safety constraints. This is a subresource of Pod.  A request to cause such an eviction is created by POSTing to .../pods/<pod name>/evictions.",
  {
    deleteOptions: {
      type: "object",
      description: "DeleteOptions may be provided",
      "x-kubernetes-preserve-unknown-fields": true,
    },
  },
);
