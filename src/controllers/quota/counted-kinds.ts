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
import { type DiscoveredResource, discoverResources, Informer } from "../../runtime/index.js";

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
  private readonly watched = new Map<string, { informer: Informer; done: Promise<void> }>();

  constructor(
    private readonly client: Client,
    private readonly signal: AbortSignal,
    private readonly onChange: (namespace: string, gr: GroupResource) => void,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** The kind serving `gr`, watched (and its cache synced) from now on; undefined when not served. */
  async resolve(gr: GroupResource): Promise<ServedKind | undefined> {
    const key = keyOf(gr);
    if (!this.served.has(key)) await this.discover();
    const r = this.served.get(key);
    if (!r?.namespaced || !r.verbs.includes("list") || !r.verbs.includes("watch")) return undefined;
    let watch = this.watched.get(key);
    if (!watch) {
      const informer = new Informer(this.client, {
        apiVersion: r.apiVersion,
        kind: r.kind,
        onError: this.onError,
      });
      const changed = (o: KubeObject) => this.onChange(o.metadata.namespace ?? "", gr);
      informer.addHandlers({
        onUpdate: (old, o) => usageChanged(gr, old, o) && changed(o),
        onDelete: changed,
      });
      watch = { informer, done: informer.run(this.signal) };
      this.watched.set(key, watch);
    }
    // Listing after the watch has synced: a deletion after our list is always reported.
    if (!(await watch.informer.waitForSync(this.signal))) return undefined;
    return { apiVersion: r.apiVersion, kind: r.kind };
  }

  private async discover(): Promise<void> {
    const resources = await discoverResources(this.client);
    this.served = new Map(resources.map((r) => [keyOf({ group: r.group, resource: r.plural }), r]));
  }

  /** Resolves once every informer has stopped (after the signal aborted). */
  async stopped(): Promise<void> {
    await Promise.all([...this.watched.values()].map((w) => w.done));
  }
}
