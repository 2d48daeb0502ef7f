/**
 * Pieces the storage kinds share: resource quantities, access modes, the node
 * selector of a volume's node affinity, and the volume sources Hearth serves
 * (hostPath, local, nfs, csi).
 */
import type { Schema } from "../../api/index.js";
import { bool, object, str, stringList, stringMap } from "./builders.js";

/** `resource.Quantity`: a string such as `10Gi` (or a plain integer). */
export function quantity(description: string): Schema {
  return { description, "x-kubernetes-int-or-string": true };
}

/** `map[ResourceName]resource.Quantity`. */
export function quantityMap(description: string): Schema {
  return { type: "object", description, additionalProperties: quantity("") };
}

export function accessModes(description: string): Schema {
  return stringList(description);
}

const nodeSelectorRequirement: Schema = object(
  "A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.",
  {
    key: str("The label key that the selector applies to."),
    operator: str(
      "Represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.",
    ),
    values: stringList(
      "An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. If the operator is Gt or Lt, the values array must have a single element, which will be interpreted as an integer. This array is replaced during a strategic merge patch.",
    ),
  },
  ["key", "operator"],
);

export const nodeSelectorTerm: Schema = {
  ...object(
    "A null or empty node selector term matches no objects. The requirements of them are ANDed. The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.",
    {
      matchExpressions: {
        type: "array",
        description: "A list of node selector requirements by node's labels.",
        items: nodeSelectorRequirement,
        "x-kubernetes-list-type": "atomic",
      },
      matchFields: {
        type: "array",
        description: "A list of node selector requirements by node's fields.",
        items: nodeSelectorRequirement,
        "x-kubernetes-list-type": "atomic",
      },
    },
  ),
  "x-kubernetes-map-type": "atomic",
};

export const volumeNodeAffinity: Schema = object(
  "nodeAffinity defines constraints that limit what nodes this volume can be accessed from. This field influences the scheduling of pods that use this volume.",
  {
    required: {
      ...object(
        "required specifies hard node constraints that must be met.",
        {
          nodeSelectorTerms: {
            type: "array",
            description: "Required. A list of node selector terms. The terms are ORed.",
            items: nodeSelectorTerm,
            "x-kubernetes-list-type": "atomic",
          },
        },
        ["nodeSelectorTerms"],
      ),
      "x-kubernetes-map-type": "atomic",
    },
  },
);

export const hostPathSource: Schema = object(
  "hostPath represents a directory on the host. Provisioned by a developer or tester. This is useful for single-node development and testing only! On-host storage is not supported in any way and WILL NOT WORK in a multi-node cluster. More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath",
  {
    path: str(
      "path of the directory on the host. If the path is a symlink, it will follow the link to the real path. More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath",
    ),
    type: str(
      'type for HostPath Volume Defaults to "" More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath',
    ),
  },
  ["path"],
);

export const localSource: Schema = object(
  "local represents directly-attached storage with node affinity",
  {
    fsType: str(
      'fsType is the filesystem type to mount. It applies only when the Path is a block device. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs". The default value is to auto-select a filesystem if unspecified.',
    ),
    path: str(
      "path of the full path to the volume on the node. It can be either a directory or block device (disk, partition, ...).",
    ),
  },
  ["path"],
);

export const nfsSource: Schema = object(
  "nfs represents an NFS mount on the host. Provisioned by an admin. More info: https://kubernetes.io/docs/concepts/storage/volumes#nfs",
  {
    path: str("path that is exported by the NFS server."),
    readOnly: bool(
      "readOnly here will force the NFS export to be mounted with read-only permissions.",
    ),
    server: str("server is the hostname or IP address of the NFS server."),
  },
  ["server", "path"],
);

export const csiSource: Schema = {
  ...object("csi represents storage that is handled by an external CSI driver.", {
    driver: str("driver is the name of the driver to use for this volume. Required."),
    fsType: str(
      'fsType to mount. Must be a filesystem type supported by the host operating system. Ex. "ext4", "xfs", "ntfs".',
    ),
    readOnly: bool(
      "readOnly value to pass to ControllerPublishVolumeRequest. Defaults to false (read/write).",
    ),
    volumeAttributes: stringMap("volumeAttributes of the volume to publish."),
    volumeHandle: str(
      "volumeHandle is the unique volume name returned by the CSI volume plugin’s CreateVolume to refer to the volume on all subsequent calls. Required.",
    ),
  }),
  required: ["driver", "volumeHandle"],
  "x-kubernetes-preserve-unknown-fields": true,
};

/** The volume sources a PersistentVolume may name (exactly one). */
export const VOLUME_SOURCES = ["hostPath", "local", "nfs", "csi"] as const;
