/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition. `openAPIV3Schema` is kept as
 * an opaque object (preserve-unknown-fields) rather than kube's recursive
 * JSONSchemaProps: the CRD registry validates structure itself.
 */
import type { Schema } from "../../api/index.js";
import { bool, int32, object, str, stringList, time } from "./builders.js";
import { kindSchema } from "./kind.js";

function crdNames(description: string): Schema {
  return object(
    description,
    {
      categories: stringList(
        "categories is a list of grouped resources this custom resource belongs to (e.g. 'all'). This is published in API discovery documents, and used by clients to support invocations like `kubectl get all`.",
      ),
      kind: str(
        "kind is the serialized kind of the resource. It is normally CamelCase and singular. Custom resource instances will use this value as the `kind` attribute in API calls.",
      ),
      listKind: str(
        'listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".',
      ),
      plural: str(
        "plural is the plural name of the resource to serve. The custom resources are served under `/apis/<group>/<version>/.../<plural>`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`). Must be all lowercase.",
      ),
      shortNames: stringList(
        "shortNames are short names for the resource, exposed in API discovery documents, and used by clients to support invocations like `kubectl get <shortname>`. It must be all lowercase.",
      ),
      singular: str(
        "singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.",
      ),
    },
    ["plural", "kind"],
  );
}

const printerColumn = object(
  "CustomResourceColumnDefinition specifies a column for server side printing.",
  {
    description: str("description is a human readable description of this column."),
    format: str(
      "format is an optional OpenAPI type definition for this column. The 'name' format is applied to the primary identifier column to assist in clients identifying column is the resource name.",
    ),
    jsonPath: str(
      "jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.",
    ),
    name: str("name is a human readable name for the column."),
    priority: int32(
      "priority is an integer defining the relative importance of this column compared to others. Lower numbers are considered higher priority. Columns that may be omitted in limited space scenarios should be given a priority greater than 0.",
    ),
    type: str(
      "type is an OpenAPI type definition for this column. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.",
    ),
  },
  ["name", "type", "jsonPath"],
);

const subresources = object(
  "subresources specify what subresources this version of the defined custom resource have.",
  {
    scale: object(
      "scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.",
      {
        labelSelectorPath: str(
          "labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.status` or `.spec`.",
        ),
        specReplicasPath: str(
          "specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.spec`.",
        ),
        statusReplicasPath: str(
          "statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.status`.",
        ),
      },
      ["specReplicasPath", "statusReplicasPath"],
    ),
    status: object(
      "status indicates the custom resource should serve a `/status` subresource. When enabled: 1. requests to the custom resource primary endpoint ignore changes to the `status` stanza of the object. 2. requests to the custom resource `/status` subresource ignore changes to anything other than the `status` stanza of the object.",
      {},
    ),
  },
);

const version = object(
  "CustomResourceDefinitionVersion describes a version for CRD.",
  {
    additionalPrinterColumns: {
      type: "array",
      description:
        "additionalPrinterColumns specifies additional columns returned in Table output. If no columns are specified, a single column displaying the age of the custom resource is used.",
      items: printerColumn,
      "x-kubernetes-list-type": "atomic",
    },
    deprecated: bool(
      "deprecated indicates this version of the custom resource API is deprecated. When set to true, API requests to this version receive a warning header in the server response. Defaults to false.",
    ),
    deprecationWarning: str(
      "deprecationWarning overrides the default warning returned to API clients. May only be set when `deprecated` is true.",
    ),
    name: str(
      "name is the version name, e.g. “v1”, “v2beta1”, etc. The custom resources are served under this version at `/apis/<group>/<version>/...` if `served` is true.",
    ),
    schema: object(
      "schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.",
      {
        openAPIV3Schema: {
          type: "object",
          description:
            "openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.",
          "x-kubernetes-preserve-unknown-fields": true,
        },
      },
    ),
    selectableFields: {
      type: "array",
      description:
        "selectableFields specifies paths to fields that may be used as field selectors. A maximum of 8 selectable fields are allowed. See https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors",
      items: object(
        "SelectableField specifies the JSON path of a field that may be used with field selectors.",
        {
          jsonPath: str(
            "jsonPath is a simple JSON path which is evaluated against each custom resource to produce a field selector value. Only JSON paths without the array notation are allowed. Must point to a field of type string, boolean or integer.",
          ),
        },
        ["jsonPath"],
      ),
      "x-kubernetes-list-type": "atomic",
    },
    served: bool(
      "served is a flag enabling/disabling this version from being served via REST APIs",
    ),
    storage: bool(
      "storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.",
    ),
    subresources,
  },
  ["name", "served", "storage"],
);

const conversion = object(
  "conversion defines conversion settings for the CRD.",
  {
    strategy: str(
      'strategy specifies how custom resources are converted between versions. Allowed values are: - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `"Webhook"`: API Server will call to an external webhook to do the conversion.',
    ),
    webhook: object(
      'webhook describes how to call the conversion webhook. Required when `strategy` is set to `"Webhook"`.',
      {
        clientConfig: object(
          "clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.",
          {
            caBundle: str(
              "caBundle is a PEM encoded CA bundle which will be used to validate the webhook's server certificate. If unspecified, system trust roots on the apiserver are used.",
              { format: "byte" },
            ),
            service: object(
              "service is a reference to the service for this webhook. Either service or url must be specified.",
              {
                name: str("name is the name of the service. Required"),
                namespace: str("namespace is the namespace of the service. Required"),
                path: str("path is an optional URL path at which the webhook will be contacted."),
                port: int32(
                  "port is an optional service port at which the webhook will be contacted. `port` should be a valid port number (1-65535, inclusive). Defaults to 443 for backward compatibility.",
                ),
              },
              ["namespace", "name"],
            ),
            url: str(
              "url gives the location of the webhook, in standard URL form (`scheme://host:port/path`). Exactly one of `url` or `service` must be specified.",
            ),
          },
        ),
        conversionReviewVersions: stringList(
          "conversionReviewVersions is an ordered list of preferred `ConversionReview` versions the Webhook expects.",
        ),
      },
      ["conversionReviewVersions"],
    ),
  },
  ["strategy"],
);

const condition = object(
  "CustomResourceDefinitionCondition contains details for the current condition of this pod.",
  {
    lastTransitionTime: time(
      "lastTransitionTime last time the condition transitioned from one status to another.",
    ),
    message: str("message is a human-readable message indicating details about last transition."),
    reason: str(
      "reason is a unique, one-word, CamelCase reason for the condition's last transition.",
    ),
    status: str("status is the status of the condition. Can be True, False, Unknown."),
    type: str(
      "type is the type of the condition. Types include Established, NamesAccepted and Terminating.",
    ),
  },
  ["type", "status"],
);

export const customResourceDefinitionSchema: Schema = kindSchema(
  { group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinition" },
  "CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.",
  {
    spec: object(
      "spec describes how the user wants the resources to appear",
      {
        conversion,
        group: str(
          "group is the API group of the defined custom resource. The custom resources are served under `/apis/<group>/...`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).",
        ),
        names: crdNames("names specify the resource and kind names for the custom resource."),
        preserveUnknownFields: bool(
          "preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage. apiVersion, kind, metadata and known fields inside metadata are always preserved. This field is deprecated in favor of setting `x-preserve-unknown-fields` to true in `spec.versions[*].schema.openAPIV3Schema`.",
        ),
        scope: str(
          "scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.",
        ),
        versions: {
          type: "array",
          description:
            "versions is the list of all API versions of the defined custom resource. Version names are used to compute the order in which served versions are listed in API discovery.",
          items: version,
          "x-kubernetes-list-type": "atomic",
        },
      },
      ["group", "names", "scope", "versions"],
    ),
    status: object("status indicates the actual state of the CustomResourceDefinition", {
      acceptedNames: crdNames(
        "acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.",
      ),
      // kube marks this list map-typed for SSA but declares no SMP strategy.
      conditions: {
        type: "array",
        description:
          "conditions indicate state for particular aspects of a CustomResourceDefinition",
        items: condition,
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["type"],
      },
      storedVersions: stringList(
        "storedVersions lists all versions of CustomResources that were ever persisted. Tracking these versions allows a migration path for stored versions in etcd.",
      ),
    }),
  },
  ["spec"],
);
