/** core/v1 ServiceAccount: `secrets` (merge by name), `imagePullSecrets`, token automount flag. */
import type { Schema } from "../../api/index.js";
import { bool, mapList } from "./builders.js";
import { kindSchema } from "./kind.js";
import { localObjectReference, objectReference } from "./references.js";

export const serviceAccountSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "ServiceAccount" },
  "ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets",
  {
    automountServiceAccountToken: bool(
      "AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted. Can be overridden at the pod level.",
    ),
    imagePullSecrets: {
      type: "array",
      description:
        "ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount. More info: https://kubernetes.io/docs/concepts/containers/images/#specifying-imagepullsecrets-on-a-pod",
      items: localObjectReference(
        "LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.",
      ),
      "x-kubernetes-list-type": "atomic",
    },
    secrets: mapList(
      "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. More info: https://kubernetes.io/docs/concepts/configuration/secret",
      "name",
      objectReference(
        "ObjectReference contains enough information to let you inspect or modify the referred object.",
      ),
    ),
  },
);
