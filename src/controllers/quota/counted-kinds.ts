/**
 * The kinds quotas count, found through discovery and watched from the first
 * time a quota asks for them: an informer per kind tells the quota controller
 * when an object went away or its usage changed (a pod turning terminal, a claim
 * growing, a service changing type), so deletions release usage without waiting
 * for the periodic resync. Creations are not reported: admission has charged
 * them already. A kind the server does not serve (yet) is looked up again on the
 * next ask.
 */

import type { KubeObject } from "../../api/index.js";
import { evaluatorFor, type GroupResource, listsEqual } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import {
  type Cache,
  type DiscoveredResource,
  discoverResources,
  type Informer,
} from "../../runtime/index.js";

export interface ServedKind {
  apiVersion: string;
  kind: string;
}

const keyOf = (gr: GroupResource) => `${gr.resource}.${gr.group}`;

/** True when an update can lower what the object is charged. */
function usageChanged(gr: GroupResource, old: KubeObject, obj: KubeObject): boolean {
  const ev = evaluatorFor(gr);
  const now = Date.now();
  if (old.metadata.deletionTimestamp !== obj.metadata.deletionTimestamp) return true;
  return !listsEqual(ev.usage(old, now), ev.usage(obj, now));
}

export class CountedKinds {
  private served = new Map<string, DiscoveredResource>();
  private readonly watched = new Map<string, Informer>();

  constructor(
    private readonly client: Client,
    private readonly cache: Cache,
    private readonly signal: AbortSignal,
    private readonly onChange: (namespace: string, gr: GroupResource) => void,
  ) {}

  /** The kind serving `gr`, watched (and its cache synced) from now on; undefined when not served. */
  async resolve(gr: GroupResource): Promise<ServedKind | undefined> {
    const key = keyOf(gr);
    if (!this.served.has(key)) await this.discover();
    const r = this.served.get(key);
    if (!r?.namespaced || !r.verbs.includes("list") || !r.verbs.includes("watch")) return undefined;
    let informer = this.watched.get(key);
    if (!informer) {
      // The Manager's shared informer of the kind: pods are watched once for every controller.
      informer = this.cache.informer({ apiVersion: r.apiVersion, kind: r.kind }).informer;
      const changed = (o: KubeObject) => this.onChange(o.metadata.namespace ?? "", gr);
      informer.addHandlers({
        onUpdate: (old, o) => usageChanged(gr, old, o) && changed(o),
        onDelete: changed,
      });
      this.watched.set(key, informer);
    }
    // Listing after the watch has synced: a deletion after our list is always reported.
    if (!(await informer.waitForSync(this.signal))) return undefined;
    return { apiVersion: r.apiVersion, kind: r.kind };
  }

  private async discover(): Promise<void> {
    const resources = await discoverResources(this.client);
    this.served = new Map(resources.map((r) => [keyOf({ group: r.group, resource: r.plural }), r]));
  }
}
