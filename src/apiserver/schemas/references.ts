/** core/v1 `ObjectReference` and `LocalObjectReference`, shared by several kinds. */
import type { Schema } from "../../api/index.js";
import { object, str } from "./builders.js";

export function objectReference(description: string): Schema {
  return {
    ...object(description, {
      apiVersion: str("API version of the referent."),
      fieldPath: str(
        'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}".',
      ),
      kind: str(
        "Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
      ),
      name: str(
        "Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
      ),
      namespace: str(
        "Namespace of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/",
      ),
      resourceVersion: str("Specific resourceVersion to which this reference is made, if any."),
      uid: str(
        "UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids",
      ),
    }),
    "x-kubernetes-map-type": "atomic",
  };
}

export function localObjectReference(description: string): Schema {
  return {
    ...object(description, {
      name: str(
        "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
      ),
    }),
    "x-kubernetes-map-type": "atomic",
  };
}
