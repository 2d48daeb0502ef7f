/**
 * `GET /openapi/v3`: one entry per group-version, each pointing at its document
 * with a content hash. kubectl caches documents by that URL, so the hash must
 * change whenever the document does (kube: SHA-512, hex, upper case).
 */
import { createHash } from "node:crypto";
import { buildGroupVersionDocument } from "./document.js";
import { groupVersionPath } from "./names.js";
import type { OpenApiDocument, OpenApiIndex, OpenApiResource } from "./types.js";

export type DocumentHash = (document: OpenApiDocument) => string;

export function documentHash(document: OpenApiDocument): string {
  return createHash("sha512").update(JSON.stringify(document)).digest("hex").toUpperCase();
}

export interface OpenApiDocuments {
  index: OpenApiIndex;
  /** Keyed like the index: `api/v1`, `apis/<group>/<version>`; served under `/openapi/v3/<key>`. */
  documents: Map<string, OpenApiDocument>;
}

/** The index and every group-version document, built together so hashes match what is served. */
export function buildOpenApiDocuments(
  resources: readonly OpenApiResource[],
  hashOf: DocumentHash = documentHash,
): OpenApiDocuments {
  const groupVersions = new Map<string, { group: string; version: string }>();
  for (const r of resources) {
    groupVersions.set(groupVersionPath(r.group, r.version), { group: r.group, version: r.version });
  }
  const index: OpenApiIndex = { paths: {} };
  const documents = new Map<string, OpenApiDocument>();
  for (const key of [...groupVersions.keys()].sort()) {
    const gv = groupVersions.get(key)!;
    const document = buildGroupVersionDocument(gv.group, gv.version, resources);
    documents.set(key, document);
    index.paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hashOf(document)}` };
  }
  return { index, documents };
}

export function buildOpenApiIndex(
  resources: readonly OpenApiResource[],
  hashOf: DocumentHash = documentHash,
): OpenApiIndex {
  return buildOpenApiDocuments(resources, hashOf).index;
}
