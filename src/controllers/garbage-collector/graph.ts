/**
 * The garbage collector's view of the world: every object by uid, with its owner
 * references, and the reverse index from an owner's uid to its dependents. Kept by
 * the monitors' informers; read by the reconciler.
 */
import type { KubeObject, OwnerReference } from "../../api/index.js";

export interface GraphNode {
  uid: string;
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  owners: OwnerReference[];
  finalizers: string[];
  deleting: boolean;
}

export const ORPHAN = "orphan";
export const FOREGROUND = "foregroundDeletion";

export function nodeOf(obj: KubeObject): GraphNode {
  return {
    uid: obj.metadata.uid ?? "",
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
    name: obj.metadata.name ?? "",
    owners: obj.metadata.ownerReferences ?? [],
    finalizers: obj.metadata.finalizers ?? [],
    deleting: obj.metadata.deletionTimestamp !== undefined,
  };
}

export class Graph {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly dependents = new Map<string, Set<string>>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** Stores the node; returns the previous version. */
  upsert(node: GraphNode): GraphNode | undefined {
    const old = this.nodes.get(node.uid);
    if (old) for (const o of old.owners) this.dependents.get(o.uid)?.delete(node.uid);
    this.nodes.set(node.uid, node);
    for (const o of node.owners) {
      const set = this.dependents.get(o.uid) ?? new Set<string>();
      set.add(node.uid);
      this.dependents.set(o.uid, set);
    }
    return old;
  }

  remove(uid: string): GraphNode | undefined {
    const old = this.nodes.get(uid);
    if (!old) return undefined;
    this.nodes.delete(uid);
    for (const o of old.owners) {
      const set = this.dependents.get(o.uid);
      set?.delete(uid);
      if (set?.size === 0) this.dependents.delete(o.uid);
    }
    return old;
  }

  /** Live dependents of an owner (nodes that list it among their owners). */
  dependentsOf(ownerUid: string): GraphNode[] {
    return [...(this.dependents.get(ownerUid) ?? [])].flatMap((uid) => this.nodes.get(uid) ?? []);
  }
}
