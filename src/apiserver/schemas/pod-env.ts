/**
 * core/v1 `EnvVar` (with `valueFrom`: fieldRef, resourceFieldRef, secretKeyRef,
 * configMapKeyRef) and `EnvFromSource`, as kube v1.32 publishes them.
 */
import type { Schema } from "../../api/index.js";
import { bool, object, str } from "./builders.js";

/** `resource.Quantity`: a string such as `500m` or `1Gi`, or a plain number. */
export function quantity(description: string): Schema {
  return { description, oneOf: [{ type: "string" }, { type: "number" }] };
}

export function objectFieldSelector(description: string): Schema {
  return {
    ...object(
      description,
      {
        apiVersion: str(
          'Version of the schema the FieldPath is written in terms of, defaults to "v1".',
        ),
        fieldPath: str("Path of the field to select in the specified API version."),
      },
      ["fieldPath"],
    ),
    "x-kubernetes-map-type": "atomic",
  };
}

export function resourceFieldSelector(description: string): Schema {
  return {
    ...object(
      description,
      {
        containerName: str("Container name: required for volumes, optional for env vars"),
        divisor: quantity('Specifies the output format of the exposed resources, defaults to "1"'),
        resource: str("Required: resource to select"),
      },
      ["resource"],
    ),
    "x-kubernetes-map-type": "atomic",
  };
}

function keySelector(description: string, of: string): Schema {
  return {
    ...object(
      description,
      {
        key: str(`The key of the ${of} to select from.  Must be a valid ${of} key.`),
        name: str(
          "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        ),
        optional: bool(
          `Specify whether the ${of === "secret" ? "Secret" : "ConfigMap"} or its key must be defined`,
        ),
      },
      ["key"],
    ),
    "x-kubernetes-map-type": "atomic",
  };
}

const envVarSource: Schema = object(
  "EnvVarSource represents a source for the value of an EnvVar.",
  {
    configMapKeyRef: keySelector("Selects a key of a ConfigMap.", "ConfigMap"),
    fieldRef: objectFieldSelector(
      "Selects a field of the pod: supports metadata.name, metadata.namespace, `metadata.labels['<KEY>']`, `metadata.annotations['<KEY>']`, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.",
    ),
    resourceFieldRef: resourceFieldSelector(
      "Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.",
    ),
    secretKeyRef: keySelector("Selects a key of a secret in the pod's namespace", "secret"),
  },
);

export const envVar: Schema = object(
  "EnvVar represents an environment variable present in a Container.",
  {
    name: str("Name of the environment variable. Must be a C_IDENTIFIER."),
    value: str(
      'Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)". Escaped references will never be expanded, regardless of whether the variable exists or not. Defaults to "".',
    ),
    valueFrom: {
      ...envVarSource,
      description:
        "Source for the environment variable's value. Cannot be used if value is not empty.",
    },
  },
  ["name"],
);

function sourceRef(description: string, kind: string): Schema {
  return object(description, {
    name: str(
      "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
    ),
    optional: bool(`Specify whether the ${kind} must be defined`),
  });
}

export const envFromSource: Schema = object(
  "EnvFromSource represents the source of a set of ConfigMaps or Secrets",
  {
    configMapRef: sourceRef("The ConfigMap to select from", "ConfigMap"),
    prefix: str(
      "Optional text to prepend to the name of each environment variable. Must be a C_IDENTIFIER.",
    ),
    secretRef: sourceRef("The Secret to select from", "Secret"),
  },
);
