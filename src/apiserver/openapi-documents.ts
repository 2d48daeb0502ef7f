/**
 * The served `/openapi/v3` documents and the `/openapi/v2` document (JSON and
 * protobuf), rebuilt lazily when the registry changes (a CRD came or went) and
 * kept encoded between changes, each with the ETag its handler sends.
 */
import { createHash } from "node:crypto";
import {
  buildOpenApiDocuments,
  buildSwaggerDocument,
  encodeSwaggerDocument,
  type OpenApiDocument,
  type OpenApiResource,
  type SwaggerSource,
} from "./openapi/index.js";
import type { ResourceRegistry } from "./resources/registry.js";
import type { ResourceType } from "./resources/resource-type.js";

function toOpenApiResource(t: ResourceType): OpenApiResource {
  return {
    group: t.group,
    version: t.version,
    kind: t.kind,
    plural: t.plural,
    namespaced: t.namespaced,
    schema: t.schema,
    subresources: [
      ...(t.status ? ["status" as const] : []),
      ...(t.scale ? ["scale" as const] : []),
    ],
    strategicMergePatch: t.strategicMergePatch,
    ...(t.computedRead ? { readOnly: true } : {}),
  };
}

/** One encoding of a document and its strong ETag (quoted, as kube-openapi sends it). */
export interface EncodedDocument {
  body: Buffer;
  etag: string;
}

function encoded(body: Buffer): EncodedDocument {
  return { body, etag: `"${createHash("sha512").update(body).digest("hex").toUpperCase()}"` };
}

interface Built {
  v3: Map<string, string>;
  v3Documents: Iterable<OpenApiDocument>;
  /** Encoded on first request: most clients never ask for v2. */
  v2?: { json: EncodedDocument; protobuf: EncodedDocument };
}

export class OpenApiDocuments implements SwaggerSource {
  private generation = -1;
  private built: Built | undefined;

  constructor(private readonly registry: ResourceRegistry) {}

  /** `""` is the index; `api/v1` or `apis/<g>/<v>` a group-version document. */
  document(path: string): string | undefined {
    return this.refresh().v3.get(path);
  }

  /** `/openapi/v2` in JSON or in gnostic's protobuf message. */
  swagger(encoding: "json" | "protobuf"): EncodedDocument {
    const built = this.refresh();
    if (!built.v2) {
      const swagger = buildSwaggerDocument(built.v3Documents);
      built.v2 = {
        json: encoded(Buffer.from(JSON.stringify(swagger))),
        protobuf: encoded(Buffer.from(encodeSwaggerDocument(swagger))),
      };
    }
    return built.v2[encoding];
  }

  private refresh(): Built {
    if (this.built && this.generation === this.registry.generation) return this.built;
    const generation = this.registry.generation;
    const v3Docs = buildOpenApiDocuments(this.registry.all().map(toOpenApiResource));
    const v3 = new Map<string, string>([["", JSON.stringify(v3Docs.index)]]);
    for (const [key, doc] of v3Docs.documents) v3.set(key, JSON.stringify(doc));
    this.built = { v3, v3Documents: [...v3Docs.documents.values()] };
    this.generation = generation;
    return this.built;
  }
}
