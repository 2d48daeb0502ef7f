/**
 * An in-memory copy of every Role, ClusterRole, RoleBinding and
 * ClusterRoleBinding, kept by one list and one watch of the RBAC storage prefix
 * (the informer of kube's RBAC authorizer). Writes through this apiserver wait
 * for `progress` (store/cache-sync.ts), so a binding is in effect once its
 * create succeeds; writes through another apiserver on the same etcd arrive by
 * the watch. A broken watch (backend closed, watcher too slow) is replaced by a relist.
 */
import type { Backend, KeyValue, StorageEvent } from "../../storage/index.js";
import { followPrefix, WatchProgress } from "../store/cache-sync.js";
import { collectionPrefix } from "../store/keys.js";
import { decodeObject } from "../store/object-store.js";
import { type ClusterRole, RBAC_GROUP, type Role, type RoleBinding } from "./types.js";

export type PolicyPlural = "roles" | "clusterroles" | "rolebindings" | "clusterrolebindings";

/** Read access to policy, as the rule resolver needs it. */
export interface PolicyReader {
  getRole(namespace: string, name: string): Role | undefined;
  getClusterRole(name: string): ClusterRole | undefined;
  roleBindings(namespace: string): Iterable<RoleBinding>;
  clusterRoleBindings(): Iterable<RoleBinding>;
  clusterRoles(): Iterable<ClusterRole>;
}

export interface PolicyChange {
  plural: PolicyPlural;
  /** Undefined after a relist (everything may have changed). */
  name?: string;
}

/** `/registry/rbac.authorization.k8s.io/`: the four kinds' collections share it. */
export const RBAC_PREFIX = collectionPrefix({ group: RBAC_GROUP, plural: "roles" }).replace(
  /roles\/$/,
  "",
);
const PLURALS = new Set<string>(["roles", "clusterroles", "rolebindings", "clusterrolebindings"]);

/** `(plural, namespace/name or name)` of a storage key under the RBAC prefix. */
function parseKey(key: string): { plural: PolicyPlural; id: string } | undefined {
  const rest = key.slice(RBAC_PREFIX.length);
  const slash = rest.indexOf("/");
  const plural = rest.slice(0, slash);
  if (slash < 0 || !PLURALS.has(plural)) return undefined;
  return { plural: plural as PolicyPlural, id: rest.slice(slash + 1) };
}

function splitId(id: string): [string, string] {
  const slash = id.indexOf("/");
  return [id.slice(0, slash), id.slice(slash + 1)];
}

export class PolicyCache implements PolicyReader {
  private readonly objects: Record<PolicyPlural, Map<string, Role | RoleBinding>> = {
    roles: new Map(),
    clusterroles: new Map(),
    rolebindings: new Map(),
    clusterrolebindings: new Map(),
  };
  /** RoleBindings by namespace, then name: every authorization reads one namespace's. */
  private readonly bindingsByNamespace = new Map<string, Map<string, RoleBinding>>();
  private readonly listeners: ((change: PolicyChange) => void)[] = [];
  /** How far the watch has delivered (writers wait on it: read-your-writes). */
  readonly progress = new WatchProgress();

  constructor(
    private readonly backend: Backend,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {}

  /** Loads everything, then follows changes until `signal` aborts. */
  start(signal: AbortSignal): Promise<void> {
    return followPrefix(
      this.backend,
      RBAC_PREFIX,
      {
        load: (items, relisted) => {
          for (const plural of PLURALS) this.objects[plural as PolicyPlural].clear();
          this.bindingsByNamespace.clear();
          for (const kv of items) this.put(kv);
          // Anything may have changed while the watch was down: aggregation looks again.
          if (relisted) this.notify({ plural: "clusterroles" });
        },
        onEvent: (ev) => this.onEvent(ev),
      },
      { what: "RBAC policy", progress: this.progress, signal, log: this.log },
    );
  }

  /** Calls `listener` after every change to cached policy. */
  onChange(listener: (change: PolicyChange) => void): void {
    this.listeners.push(listener);
  }

  getRole(namespace: string, name: string): Role | undefined {
    return this.objects.roles.get(`${namespace}/${name}`) as Role | undefined;
  }

  getClusterRole(name: string): ClusterRole | undefined {
    return this.objects.clusterroles.get(name) as ClusterRole | undefined;
  }

  roleBindings(namespace: string): Iterable<RoleBinding> {
    return this.bindingsByNamespace.get(namespace)?.values() ?? [];
  }

  clusterRoleBindings(): Iterable<RoleBinding> {
    return this.objects.clusterrolebindings.values() as Iterable<RoleBinding>;
  }

  clusterRoles(): Iterable<ClusterRole> {
    return this.objects.clusterroles.values() as Iterable<ClusterRole>;
  }

  private onEvent(ev: StorageEvent): void {
    const parsed = parseKey(ev.kv.key);
    if (!parsed) return;
    if (ev.type === "delete") this.remove(parsed.plural, parsed.id);
    else this.put(ev.kv);
    this.notify({ plural: parsed.plural, name: parsed.id });
  }

  private put(kv: KeyValue): void {
    const parsed = parseKey(kv.key);
    if (!parsed) return;
    const obj = decodeObject(kv) as Role | RoleBinding;
    this.objects[parsed.plural].set(parsed.id, obj);
    if (parsed.plural !== "rolebindings") return;
    const [namespace, name] = splitId(parsed.id);
    let names = this.bindingsByNamespace.get(namespace);
    if (!names) {
      names = new Map();
      this.bindingsByNamespace.set(namespace, names);
    }
    names.set(name, obj as RoleBinding);
  }

  private remove(plural: PolicyPlural, id: string): void {
    this.objects[plural].delete(id);
    if (plural !== "rolebindings") return;
    const [namespace, name] = splitId(id);
    const names = this.bindingsByNamespace.get(namespace);
    names?.delete(name);
    if (names?.size === 0) this.bindingsByNamespace.delete(namespace);
  }

  private notify(change: PolicyChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch (e) {
        this.log("RBAC policy listener failed", e);
      }
    }
  }
}
