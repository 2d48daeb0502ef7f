/**
 * The WorkloadMonitor CustomResourceDefinition (Cozystack's
 * `workloadmonitors.cozystack.io`): a namespaced kind with a status
 * subresource, whose spec names the pods it counts (`selector`, matchLabels)
 * and the fewest that must be Ready (`minReplicas`).
 */
import type { KubeObject } from "../../../api/index.js";
import { rootSchema } from "../../definitions.js";
import { WORKLOAD_MONITOR, WORKLOADS_GROUP } from "../../workloads-api.js";

const count = { type: "integer", minimum: 0 };

const spec = {
  type: "object",
  properties: {
    selector: { type: "object", additionalProperties: { type: "string" } },
    kind: { type: "string" },
    type: { type: "string" },
    version: { type: "string" },
    replicas: count,
    minReplicas: count,
  },
};

const column = (name: string, type: string, field: string) => ({
  name,
  type,
  jsonPath: field,
});

export const WORKLOAD_MONITOR_CRD: KubeObject = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `workloadmonitors.${WORKLOADS_GROUP}` },
  spec: {
    group: WORKLOADS_GROUP,
    scope: "Namespaced",
    names: {
      kind: WORKLOAD_MONITOR.kind,
      listKind: `${WORKLOAD_MONITOR.kind}List`,
      plural: "workloadmonitors",
      singular: "workloadmonitor",
    },
    versions: [
      {
        name: "v1alpha1",
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          column("Kind", "string", ".spec.kind"),
          column("Type", "string", ".spec.type"),
          column("Version", "string", ".spec.version"),
          column("Replicas", "integer", ".spec.replicas"),
          column("MinReplicas", "integer", ".spec.minReplicas"),
          column("Available", "integer", ".status.availableReplicas"),
          column("Observed", "integer", ".status.observedReplicas"),
          column("Operational", "boolean", ".status.operational"),
        ],
        schema: {
          openAPIV3Schema: rootSchema(
            { spec },
            {
              required: ["spec"],
              status: {
                operational: { type: "boolean" },
                observedReplicas: count,
                availableReplicas: count,
              },
            },
          ),
        },
      },
    ],
  },
};
