/**
 * The registry of served resources: built-in kinds, fixed at start, and custom
 * kinds, added and removed as CustomResourceDefinitions come and go. Discovery and
 * OpenAPI documents are derived from it; `generation` tells when to rebuild them.
 */
import type { ResourceType } from "./resource-type.js";

export class ResourceRegistry {
  private readonly builtins: ResourceType[];
  private readonly custom = new Map<string, ResourceType[]>();
  private index = new Map<string, ResourceType>();
  private kindIndex = new Map<string, ResourceType>();
  /** Bumped on every change; caches of derived documents compare it. */
  generation = 0;

  constructor(builtins: ResourceType[]) {
    this.builtins = builtins;
    this.reindex();
  }

  /** The type served at `/apis/<group>/<version>/<plural>`. */
  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    return this.index.get(`${group}/${version}/${plural}`);
  }

  byKind(group: string, version: string, kind: string): ResourceType | undefined {
    return this.kindIndex.get(`${group}/${version}/${kind}`);
  }

  all(): ResourceType[] {
    return [...this.builtins, ...[...this.custom.values()].flat()];
  }

  /** Group → versions in preference order (first preferred). */
  groupVersions(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const t of this.all()) {
      const versions = out.get(t.group) ?? [];
      if (!versions.includes(t.version)) versions.push(t.version);
      out.set(t.group, versions);
    }
    return out;
  }

  /** Serves (or replaces) the versions of one CRD, keyed by its name. */
  setCustom(crdName: string, types: ResourceType[]): void {
    if (types.length === 0) this.custom.delete(crdName);
    else this.custom.set(crdName, types);
    this.reindex();
  }

  removeCustom(crdName: string): void {
    if (this.custom.delete(crdName)) this.reindex();
  }

  private reindex(): void {
    const index = new Map<string, ResourceType>();
    const kinds = new Map<string, ResourceType>();
    for (const t of this.all()) {
      index.set(`${t.group}/${t.version}/${t.plural}`, t);
      kinds.set(`${t.group}/${t.version}/${t.kind}`, t);
    }
    this.index = index;
    this.kindIndex = kinds;
    this.generation++;
  }
}
