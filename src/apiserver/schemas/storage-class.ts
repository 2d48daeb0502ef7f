/** storage.k8s.io/v1 StorageClass: a provisioner, its parameters and the policies of its volumes. */
import type { Schema } from "../../api/index.js";
import { bool, object, str, stringList, stringMap } from "./builders.js";
import { kindSchema } from "./kind.js";

const topologySelectorTerm: Schema = {
  ...object(
    "A topology selector term represents the result of label queries. A null or empty topology selector term matches no objects. The requirements of them are ANDed. It provides a subset of functionality as NodeSelectorTerm. This is an alpha feature and may change in the future.",
    {
      matchLabelExpressions: {
        type: "array",
        description: "A list of topology selector requirements by labels.",
        items: object(
          "A topology selector requirement is a selector that matches given label. This is an alpha feature and may change in the future.",
          {
            key: str("The label key that the selector applies to."),
            values: stringList(
              "An array of string values. One value must match the label to be selected. Each entry in Values is ORed.",
            ),
          },
          ["key", "values"],
        ),
        "x-kubernetes-list-type": "atomic",
      },
    },
  ),
  "x-kubernetes-map-type": "atomic",
};

export const storageClassSchema: Schema = kindSchema(
  { group: "storage.k8s.io", version: "v1", kind: "StorageClass" },
  "StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned.\n\nStorageClasses are non-namespaced; the name of the storage class according to etcd is in ObjectMeta.Name.",
  {
    allowVolumeExpansion: bool(
      "allowVolumeExpansion shows whether the storage class allow volume expand.",
    ),
    allowedTopologies: {
      type: "array",
      description:
        "allowedTopologies restrict the node topologies where volumes can be dynamically provisioned. Each volume plugin defines its own supported topology specifications. An empty TopologySelectorTerm list means there is no topology restriction. This field is only honored by servers that enable the VolumeScheduling feature.",
      items: topologySelectorTerm,
      "x-kubernetes-list-type": "atomic",
    },
    mountOptions: stringList(
      'mountOptions controls the mountOptions for dynamically provisioned PersistentVolumes of this storage class. e.g. ["ro", "soft"]. Not validated - mount of the PVs will simply fail if one is invalid.',
    ),
    parameters: stringMap(
      "parameters holds the parameters for the provisioner that should create volumes of this storage class.",
    ),
    provisioner: str("provisioner indicates the type of the provisioner."),
    reclaimPolicy: str(
      "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.",
    ),
    volumeBindingMode: str(
      "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.",
    ),
  },
  ["provisioner"],
);
