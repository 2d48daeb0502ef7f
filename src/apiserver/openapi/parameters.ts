/**
 * The query and path parameters kube declares on resource operations. kubectl
 * looks for `fieldValidation` on the PATCH operation to decide that the server
 * validates fields itself (cli-runtime `query_param_verifier_v3.go`).
 */
import type { OpenApiParameter } from "./types.js";

function query(
  name: string,
  type: OpenApiParameter["schema"]["type"],
  description: string,
): OpenApiParameter {
  return { name, in: "query", description, schema: { type, uniqueItems: true } };
}

function path(name: string, description: string): OpenApiParameter {
  return {
    name,
    in: "path",
    description,
    required: true,
    schema: { type: "string", uniqueItems: true },
  };
}

export const pretty = query("pretty", "string", "If 'true', then the output is pretty printed.");

export const namespaceParam = path(
  "namespace",
  "object name and auth scope, such as for teams and projects",
);

export function nameParam(kind: string): OpenApiParameter {
  return path("name", `name of the ${kind}`);
}

const dryRun = query(
  "dryRun",
  "string",
  "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed",
);

const fieldManager = query(
  "fieldManager",
  "string",
  "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.",
);

const fieldValidation = query(
  "fieldValidation",
  "string",
  "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present.",
);

const force = query(
  "force",
  "boolean",
  'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
);

const listParams: OpenApiParameter[] = [
  query(
    "allowWatchBookmarks",
    "boolean",
    'allowWatchBookmarks requests watch events with type "BOOKMARK".',
  ),
  query(
    "continue",
    "string",
    "The continue option should be set when retrieving more results from the server.",
  ),
  query(
    "fieldSelector",
    "string",
    "A selector to restrict the list of returned objects by their fields. Defaults to everything.",
  ),
  query(
    "labelSelector",
    "string",
    "A selector to restrict the list of returned objects by their labels. Defaults to everything.",
  ),
  query("limit", "integer", "limit is a maximum number of responses to return for a list call."),
  query(
    "resourceVersion",
    "string",
    "resourceVersion sets a constraint on what resource versions a request may be served from.",
  ),
  query(
    "resourceVersionMatch",
    "string",
    "resourceVersionMatch determines how resourceVersion is applied to list calls.",
  ),
  query(
    "sendInitialEvents",
    "boolean",
    "`sendInitialEvents=true` may be set together with `watch=true`.",
  ),
  query("timeoutSeconds", "integer", "Timeout for the list/watch call."),
  query(
    "watch",
    "boolean",
    "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.",
  ),
];

const deleteParams: OpenApiParameter[] = [
  dryRun,
  query(
    "gracePeriodSeconds",
    "integer",
    "The duration in seconds before the object should be deleted. The value zero indicates delete immediately.",
  ),
  query(
    "orphanDependents",
    "boolean",
    "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7.",
  ),
  query(
    "propagationPolicy",
    "string",
    "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'.",
  ),
];

export const parametersByAction = {
  list: listParams,
  get: [] as OpenApiParameter[],
  post: [dryRun, fieldManager, fieldValidation],
  put: [dryRun, fieldManager, fieldValidation],
  patch: [dryRun, fieldManager, fieldValidation, force],
  delete: deleteParams,
  deletecollection: [...deleteParams, ...listParams],
} as const;
