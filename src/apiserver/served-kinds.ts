/**
 * Whether kinds are served the way clients find them: in discovery
 * (`/api/v1`, `/apis/<group>/<version>`), in the `/openapi/v3` group-version
 * document and in `/openapi/v2`. Read from the very documents the server would
 * answer with, not from a flag set when a registration began: kubectl's apply
 * validates against OpenAPI, so a kind that is in discovery but not yet in its
 * OpenAPI document fails ("failed to download openapi") where a kind in both
 * does not.
 */
import { resourceList } from "./discovery.js";
import type { OpenApiDocuments } from "./openapi-documents.js";
import type { ResourceRegistry } from "./resources/registry.js";

export interface ServedKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
}

type Gvk = { group?: string; version?: string; kind?: string };

const gvkKey = (g: string, v: string, k: string) => `${g}/${v}/${k}`;

/** Every `x-kubernetes-group-version-kind` of a map of named schemas. */
function kindsOf(
  schemas: Record<string, { "x-kubernetes-group-version-kind"?: Gvk[] }> | undefined,
) {
  const out = new Set<string>();
  for (const schema of Object.values(schemas ?? {}))
    for (const gvk of schema["x-kubernetes-group-version-kind"] ?? [])
      out.add(gvkKey(gvk.group ?? "", gvk.version ?? "", gvk.kind ?? ""));
  return out;
}

/** Parses a document once per body the server hands out (they change only with the registry). */
class KindsCache<Body> {
  private body: Body | undefined;
  private kinds = new Set<string>();
  constructor(private readonly read: (body: Body) => Set<string>) {}
  of(body: Body): Set<string> {
    if (body !== this.body) {
      this.kinds = this.read(body);
      this.body = body;
    }
    return this.kinds;
  }
}

export class ServedKinds {
  private readonly v3 = new Map<string, KindsCache<string>>();
  private readonly v2 = new KindsCache<Buffer>((body) =>
    kindsOf(JSON.parse(body.toString()).definitions),
  );

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly openapi: OpenApiDocuments,
  ) {}

  /** Where the first of `kinds` that is not fully served is missing; undefined when all are served. */
  missing(kinds: readonly ServedKind[]): string | undefined {
    for (const k of kinds) {
      const where = this.missingFrom(k);
      if (where)
        return `${k.kind} (${k.group ? `${k.group}/` : ""}${k.version}) is not in ${where} yet`;
    }
    return undefined;
  }

  private missingFrom(k: ServedKind): string | undefined {
    const path = k.group ? `apis/${k.group}/${k.version}` : `api/${k.version}`;
    const list = resourceList(this.registry, k.group, k.version) as
      | { resources?: { name: string; kind: string }[] }
      | undefined;
    if (!list?.resources?.some((r) => r.name === k.plural && r.kind === k.kind))
      return `discovery (/${path})`;
    const key = gvkKey(k.group, k.version, k.kind);
    const v3Body = this.openapi.document(path);
    if (v3Body === undefined || !this.v3Cache(path).of(v3Body).has(key))
      return `/openapi/v3/${path}`;
    if (!this.v2.of(this.openapi.swagger("json").body).has(key)) return "/openapi/v2";
    return undefined;
  }

  private v3Cache(path: string): KindsCache<string> {
    let cache = this.v3.get(path);
    if (!cache) {
      cache = new KindsCache((body) => kindsOf(JSON.parse(body).components?.schemas));
      this.v3.set(path, cache);
    }
    return cache;
  }
}
