/** core/v1 Namespace: `spec.finalizers` keeps it until content is gone; `status.phase` Active|Terminating. */
import type { Schema } from "../../api/index.js";
import { mapList, object, str, time } from "./builders.js";
import { kindSchema } from "./kind.js";

const namespaceCondition = object(
  "NamespaceCondition contains details about state of namespace.",
  {
    lastTransitionTime: time("Last time the condition transitioned from one status to another."),
    message: str("Human-readable message indicating details about last transition."),
    reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
    status: str("Status of the condition, one of True, False, Unknown."),
    type: str("Type of namespace controller condition."),
  },
  ["type", "status"],
);

export const namespaceSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "Namespace" },
  "Namespace provides a scope for Names. Use of multiple namespaces is optional.",
  {
    spec: object(
      "Spec defines the behavior of the Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      {
        finalizers: {
          type: "array",
          description:
            "Finalizers is an opaque list of values that must be empty to permanently remove object from storage. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/",
          items: { type: "string" },
          "x-kubernetes-list-type": "atomic",
        },
      },
    ),
    status: object(
      "Status describes the current status of a Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      {
        conditions: mapList(
          "Represents the latest available observations of a namespace's current state.",
          "type",
          namespaceCondition,
        ),
        phase: str(
          "Phase is the current lifecycle phase of the namespace. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/",
          { enum: ["Active", "Terminating"] },
        ),
      },
    ),
  },
);
