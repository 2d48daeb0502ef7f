/**
 * The served `/openapi/v3` documents, rebuilt lazily when the registry changes
 * (a CRD came or went) and kept as strings between changes.
 */
import { buildOpenApiDocuments, type OpenApiResource } from "./openapi/index.js";
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
  };
}

export class OpenApiDocuments {
  private generation = -1;
  private docs = new Map<string, string>();

  constructor(private readonly registry: ResourceRegistry) {}

  /** `""` is the index; `api/v1` or `apis/<g>/<v>` a group-version document. */
  document(path: string): string | undefined {
    this.refresh();
    return this.docs.get(path);
  }

  private refresh(): void {
    if (this.generation === this.registry.generation) return;
    const built = buildOpenApiDocuments(this.registry.all().map(toOpenApiResource));
    const docs = new Map<string, string>([["", JSON.stringify(built.index)]]);
    for (const [key, doc] of built.documents) docs.set(key, JSON.stringify(doc));
    this.docs = docs;
    this.generation = this.registry.generation;
  }
}
