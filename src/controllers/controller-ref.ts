/** metav1.NewControllerRef: the owner reference a controller puts on what it makes. */
import type { KubeObject, OwnerReference } from "../api/index.js";

export function newControllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name ?? "",
    uid: owner.metadata.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}
