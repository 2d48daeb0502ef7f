/** core/v1 PersistentVolume: a piece of storage, its source, capacity, class and claim. */
import type { Schema } from "../../api/index.js";
import { object, str, stringList, time } from "./builders.js";
import { kindSchema } from "./kind.js";
import { objectReference } from "./references.js";
import {
  accessModes,
  csiSource,
  hostPathSource,
  localSource,
  nfsSource,
  quantityMap,
  volumeNodeAffinity,
} from "./volume-common.js";

export const persistentVolumeSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "PersistentVolume" },
  "PersistentVolume (PV) is a storage resource provisioned by an administrator. It is analogous to a node. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes",
  {
    spec: object(
      "spec defines a specification of a persistent volume owned by the cluster. Provisioned by an administrator. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistent-volumes",
      {
        accessModes: accessModes(
          "accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes",
        ),
        capacity: quantityMap(
          "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
        ),
        claimRef: objectReference(
          "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding",
        ),
        csi: csiSource,
        hostPath: hostPathSource,
        local: localSource,
        mountOptions: stringList(
          'mountOptions is the list of mount options, e.g. ["ro", "soft"]. Not validated - mount will simply fail if one is invalid. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes/#mount-options',
        ),
        nfs: nfsSource,
        nodeAffinity: volumeNodeAffinity,
        persistentVolumeReclaimPolicy: str(
          "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming",
        ),
        storageClassName: str(
          "storageClassName is the name of StorageClass to which this persistent volume belongs. Empty value means that this volume does not belong to any StorageClass.",
        ),
        volumeAttributesClassName: str(
          "Name of VolumeAttributesClass to which this persistent volume belongs. Empty value is not allowed.",
        ),
        volumeMode: str(
          "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.",
        ),
      },
    ),
    status: object(
      "status represents the current information/status for the persistent volume. Populated by the system. Read-only. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistent-volumes",
      {
        lastPhaseTransitionTime: time(
          "lastPhaseTransitionTime is the time the phase transitioned from one to another and automatically resets to current time everytime a volume phase transitions.",
        ),
        message: str(
          "message is a human-readable message indicating details about why the volume is in this state.",
        ),
        phase: str(
          "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase",
        ),
        reason: str(
          "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.",
        ),
      },
    ),
  },
);
