/**
 * The OpenAPI 3.0 document of one group-version (`/openapi/v3/api/v1`,
 * `/openapi/v3/apis/<g>/<v>`): what `kubectl explain` renders, what kubectl's
 * field-validation check and client-side apply's patch-type choice read.
 */
import { kindComponent, listComponent, sharedComponents } from "./components.js";
import { componentName } from "./names.js";
import { resourcePaths } from "./paths.js";
import type { OpenApiDocument, OpenApiPathItem, OpenApiResource } from "./types.js";

export const KUBERNETES_VERSION = "v1.32.0";

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** Builds the document from the resources of `group`/`version` (others are ignored). */
export function buildGroupVersionDocument(
  group: string,
  version: string,
  resources: readonly OpenApiResource[],
): OpenApiDocument {
  const mine = resources
    .filter((r) => r.group === group && r.version === version)
    .sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
  const paths: Record<string, OpenApiPathItem> = {};
  const schemas = sharedComponents(mine.some((r) => r.subresources.includes("scale")));
  for (const r of mine) {
    Object.assign(paths, resourcePaths(r));
    const name = componentName(r, r.strategicMergePatch);
    schemas[name] = kindComponent(r);
    schemas[`${name}List`] = listComponent(r, name);
  }
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: KUBERNETES_VERSION },
    paths: sortedRecord(paths),
    components: { schemas: sortedRecord(schemas) },
  };
}
