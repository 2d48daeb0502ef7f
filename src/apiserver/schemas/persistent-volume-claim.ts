/** core/v1 PersistentVolumeClaim: a user's request for storage and the volume bound to it. */
import type { Schema } from "../../api/index.js";
import { object, str } from "./builders.js";
import { kindSchema } from "./kind.js";
import { labelSelector } from "./label-selector.js";
import { accessModes, quantityMap } from "./volume-common.js";

const typedReference = (description: string): Schema => ({
  ...object(
    description,
    {
      apiGroup: str(
        "APIGroup is the group for the resource being referenced. If APIGroup is not specified, the specified Kind must be in the core API group. For any other third-party types, APIGroup is required.",
      ),
      kind: str("Kind is the type of resource being referenced"),
      name: str("Name is the name of resource being referenced"),
      namespace: str("Namespace is the namespace of resource being referenced"),
    },
    ["kind", "name"],
  ),
  "x-kubernetes-map-type": "atomic",
});

const condition: Schema = object(
  "PersistentVolumeClaimCondition contains details about state of pvc",
  {
    lastProbeTime: str("lastProbeTime is the time we probed the condition.", {
      format: "date-time",
    }),
    lastTransitionTime: str(
      "lastTransitionTime is the time the condition transitioned from one status to another.",
      { format: "date-time" },
    ),
    message: str("message is the human-readable message indicating details about last transition."),
    reason: str(
      "reason is a unique, this should be a short, machine understandable string that gives the reason for condition's last transition.",
    ),
    status: str("Status is the status of the condition."),
    type: str("Type is the type of the condition."),
  },
  ["type", "status"],
);

export const persistentVolumeClaimSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "PersistentVolumeClaim" },
  "PersistentVolumeClaim is a user's request for and claim to a persistent volume",
  {
    spec: object(
      "spec defines the desired characteristics of a volume requested by a pod author. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims",
      {
        accessModes: accessModes(
          "accessModes contains the desired access modes the volume should have. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1",
        ),
        dataSource: typedReference(
          "dataSource field can be used to specify either: an existing VolumeSnapshot object, an existing PVC (PersistentVolumeClaim). Hearth does not populate volumes from a data source.",
        ),
        dataSourceRef: typedReference(
          "dataSourceRef specifies the object from which to populate the volume with data, if a non-empty volume is desired.",
        ),
        resources: object(
          "resources represents the minimum resources the volume should have. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#resources",
          {
            limits: quantityMap(
              "Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
            ),
            requests: quantityMap(
              "Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
            ),
          },
        ),
        selector: {
          ...labelSelector,
          description: "selector is a label query over volumes to consider for binding.",
        },
        storageClassName: str(
          "storageClassName is the name of the StorageClass required by the claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#class-1",
        ),
        volumeAttributesClassName: str(
          "volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.",
        ),
        volumeMode: str(
          "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.",
        ),
        volumeName: str(
          "volumeName is the binding reference to the PersistentVolume backing this claim.",
        ),
      },
    ),
    status: object(
      "status represents the current information/status of a persistent volume claim. Read-only. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims",
      {
        accessModes: accessModes(
          "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1",
        ),
        allocatedResources: quantityMap(
          "allocatedResources tracks the resources allocated to a PVC including its capacity.",
        ),
        capacity: quantityMap("capacity represents the actual resources of the underlying volume."),
        conditions: {
          type: "array",
          description:
            "conditions is the current Condition of persistent volume claim. If underlying persistent volume is being resized then the Condition will be set to 'Resizing'.",
          items: condition,
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["type"],
          "x-kubernetes-patch-strategy": "merge",
          "x-kubernetes-patch-merge-key": "type",
        },
        phase: str("phase represents the current phase of PersistentVolumeClaim."),
      },
    ),
  },
);
