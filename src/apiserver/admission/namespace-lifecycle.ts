/**
 * kube's NamespaceLifecycle check for new content: an object may be created
 * only in a namespace that exists and is not being deleted. The namespace is
 * looked up in a watch-fed cache (store/object-cache.ts), as kube's plugin uses
 * its namespace informer, and read from storage only when the cache does not
 * have it (it may lag a namespace just created through another apiserver).
 * Namespace writes through this apiserver return once the cache has them, so a
 * create right after `kubectl delete namespace` here is refused; a namespace
 * deleted through another apiserver may take a watch delivery to be seen
 * Terminating, the window kube-apiserver has too.
 */

import type { KubeObject } from "../../api/index.js";
import { ForbiddenError, NotFoundError } from "../../api/index.js";
import type { Backend } from "../../storage/index.js";
import type { ResourceType } from "../resources/resource-type.js";
import type { FollowedPrefix } from "../store/cache-sync.js";
import { objectKey } from "../store/keys.js";
import { ObjectCache } from "../store/object-cache.js";
import { decodeObject } from "../store/object-store.js";

const NAMESPACES = { group: "", plural: "namespaces", namespaced: false };

/** Finds a namespace by name; undefined if it does not exist. */
export interface NamespaceLookup {
  lookup(name: string): Promise<KubeObject | undefined>;
}

/** The namespace as stored (a linearizable read). */
export async function readNamespace(
  backend: Backend,
  name: string,
): Promise<KubeObject | undefined> {
  const kv = await backend.get(objectKey(NAMESPACES, undefined, name));
  return kv ? decodeObject(kv) : undefined;
}

export class NamespaceLifecycle implements NamespaceLookup {
  private readonly cache: ObjectCache;

  constructor(
    private readonly backend: Backend,
    log?: (msg: string, err?: unknown) => void,
  ) {
    this.cache = new ObjectCache(backend, NAMESPACES, log);
  }

  /** Loads the namespaces, then follows them until `signal` aborts. */
  start(signal: AbortSignal): Promise<void> {
    return this.cache.start(signal);
  }

  followed(): FollowedPrefix {
    return this.cache.followed();
  }

  /** The namespace from the cache, else from storage; undefined if it does not exist. */
  async lookup(name: string): Promise<KubeObject | undefined> {
    return this.cache.get(undefined, name) ?? (await readNamespace(this.backend, name));
  }

  /** Throws NotFound for a missing namespace and Forbidden for one being deleted. */
  async checkAcceptsContent(type: ResourceType, namespace: string): Promise<void> {
    const ns = await this.lookup(namespace);
    if (!ns) throw new NotFoundError({ group: "", resource: "namespaces", name: namespace });
    if (ns.metadata.deletionTimestamp)
      throw new ForbiddenError(
        { group: type.group, resource: type.plural, name: "" },
        `unable to create new content in namespace ${namespace} because it is being terminated`,
      );
  }
}
