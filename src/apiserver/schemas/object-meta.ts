/**
 * `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`, inline: the metadata every
 * persisted object has. Carries the SMP/SSA extensions of `ownerReferences`
 * (merge by `uid`) and `finalizers` (merge, set) that client-side apply relies on.
 */
import type { Schema } from "../../api/index.js";
import { int64, object, str, stringMap, time } from "./builders.js";

const ownerReference: Schema = object(
  "OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.",
  {
    apiVersion: str("API version of the referent."),
    kind: str("Kind of the referent."),
    name: str("Name of the referent."),
    uid: str("UID of the referent."),
    controller: {
      type: "boolean",
      description: "If true, this reference points to the managing controller.",
    },
    blockOwnerDeletion: {
      type: "boolean",
      description:
        'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed. Defaults to false.',
    },
  },
  ["apiVersion", "kind", "name", "uid"],
);
ownerReference["x-kubernetes-map-type"] = "atomic";

const managedFieldsEntry: Schema = object(
  "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
  {
    manager: str("Manager is an identifier of the workflow managing these fields."),
    operation: str(
      "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'.",
    ),
    apiVersion: str(
      'APIVersion defines the version of this resource that this field set applies to. The format is "group/version" just like the top-level APIVersion field.',
    ),
    time: time("Time is the timestamp of when the ManagedFields entry was added."),
    fieldsType: str(
      'FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"',
    ),
    fieldsV1: {
      type: "object",
      description:
        'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.',
      "x-kubernetes-preserve-unknown-fields": true,
    },
    subresource: str(
      "Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.",
    ),
  },
);

/** ObjectMeta as kube publishes it (nested types inlined). */
export const objectMeta: Schema = object(
  "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
  {
    annotations: stringMap(
      "Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations",
    ),
    creationTimestamp: time(
      "CreationTimestamp is a timestamp representing the server time when this object was created. Clients may not set this value. It is represented in RFC3339 form and is in UTC. Populated by the system. Read-only.",
    ),
    deletionGracePeriodSeconds: int64(
      "Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only.",
    ),
    deletionTimestamp: time(
      "DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client. Populated by the system when a graceful deletion is requested. Read-only.",
    ),
    finalizers: {
      type: "array",
      description:
        "Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list. If the deletionTimestamp of the object is non-nil, entries in this list can only be removed. Finalizers may be processed and removed in any order.",
      items: { type: "string" },
      "x-kubernetes-list-type": "set",
      "x-kubernetes-patch-strategy": "merge",
    },
    generateName: str(
      "GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided. If this field is specified and the generated name exists, the server will return a 409. Applied only if Name is not specified.",
    ),
    generation: int64(
      "A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.",
    ),
    labels: stringMap(
      "Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels",
    ),
    managedFields: {
      type: "array",
      description:
        "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set or understand this field.",
      items: managedFieldsEntry,
      "x-kubernetes-list-type": "atomic",
    },
    name: str(
      "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
    ),
    namespace: str(
      'Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation. Must be a DNS_LABEL. Cannot be updated.',
    ),
    ownerReferences: {
      type: "array",
      description:
        "List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected. If this object is managed by a controller, then an entry in this list will point to this controller, with the controller field set to true. There cannot be more than one managing controller.",
      items: ownerReference,
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["uid"],
      "x-kubernetes-patch-strategy": "merge",
      "x-kubernetes-patch-merge-key": "uid",
    },
    resourceVersion: str(
      "An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. May be used for optimistic concurrency, change detection, and the watch operation on a resource or set of resources. Populated by the system. Read-only.",
    ),
    selfLink: str(
      "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.",
    ),
    uid: str(
      "UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations. Populated by the system. Read-only.",
    ),
  },
);

export const OBJECT_META_DESCRIPTION =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
