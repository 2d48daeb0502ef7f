/**
 * `/openapi/v2`: one Swagger 2.0 document of every group-version, built from the
 * same v3 documents `/openapi/v3` serves so the two never disagree. Definitions
 * keep kube's keys (`io.k8s.api.core.v1.Pod`, `io.cozystack.apps.v1alpha1.Tenant`)
 * and their `x-kubernetes-group-version-kind`, which kubectl's v2 validation
 * and `explain` look kinds up by.
 */
import { KUBERNETES_VERSION } from "./document.js";
import type { OpenApiDocument, OpenApiOperation, OpenApiParameter } from "./types.js";
import { toV2Schema } from "./v2-schema.js";
import type {
  SwaggerDocument,
  SwaggerMethod,
  SwaggerOperation,
  SwaggerParameter,
  SwaggerPathItem,
  SwaggerResponse,
} from "./v2-types.js";

const METHODS: readonly SwaggerMethod[] = ["get", "put", "post", "delete", "patch"];
const PRODUCES = ["application/json", "application/yaml"];

function parameter(p: OpenApiParameter): SwaggerParameter {
  return {
    ...(p.description !== undefined ? { description: p.description } : {}),
    in: p.in,
    name: p.name,
    ...(p.required ? { required: true } : {}),
    type: p.schema.type,
    uniqueItems: true,
  };
}

function operation(op: OpenApiOperation): SwaggerOperation {
  const params = (op.parameters ?? []).map(parameter);
  const body = op.requestBody;
  const bodyTypes = body ? Object.keys(body.content) : [];
  const bodySchema = body ? Object.values(body.content)[0]?.schema : undefined;
  if (body && bodySchema) {
    params.unshift({
      in: "body",
      name: "body",
      ...(body.required ? { required: true } : {}),
      schema: toV2Schema(bodySchema),
    });
  }
  const responses: Record<string, SwaggerResponse> = {};
  for (const [code, r] of Object.entries(op.responses)) {
    const schema = r.content?.["application/json"]?.schema;
    responses[code] = {
      description: r.description,
      ...(schema ? { schema: toV2Schema(schema) } : {}),
    };
  }
  responses["401"] = { description: "Unauthorized" };
  return {
    description: op.description,
    // kube lists the patch types a PATCH takes; every other operation takes `*/*`.
    consumes: op["x-kubernetes-action"] === "patch" ? bodyTypes : ["*/*"],
    produces: PRODUCES,
    schemes: ["https"],
    tags: op.tags,
    operationId: op.operationId,
    ...(params.length > 0 ? { parameters: params } : {}),
    responses,
    "x-kubernetes-action": op["x-kubernetes-action"],
    "x-kubernetes-group-version-kind": op["x-kubernetes-group-version-kind"],
  };
}

function sorted<T>(entries: [string, T][]): Record<string, T> {
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Merges the group-version documents (shared meta/v1 definitions appear once). */
export function buildSwaggerDocument(documents: Iterable<OpenApiDocument>): SwaggerDocument {
  const paths: [string, SwaggerPathItem][] = [];
  const definitions = new Map<string, SwaggerDocument["definitions"][string]>();
  for (const doc of documents) {
    for (const [path, item] of Object.entries(doc.paths)) {
      const out: SwaggerPathItem = {};
      for (const m of METHODS) {
        const op = item[m];
        if (op) out[m] = operation(op);
      }
      if (item.parameters) out.parameters = item.parameters.map(parameter);
      paths.push([path, out]);
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      if (!definitions.has(name)) definitions.set(name, toV2Schema(schema));
    }
  }
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version: KUBERNETES_VERSION },
    paths: sorted(paths),
    definitions: sorted([...definitions]),
    securityDefinitions: {
      BearerToken: {
        type: "apiKey",
        name: "authorization",
        in: "header",
      },
    },
    security: [{ BearerToken: [] }],
  };
}
