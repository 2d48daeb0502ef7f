/**
 * The garbage collector, as Kubernetes': owner references are matched by uid; an
 * object whose owners are all gone is deleted (Background, or as its own
 * finalizers ask); an owner deleted in the foreground keeps its
 * `foregroundDeletion` finalizer until no `blockOwnerDeletion` dependent remains;
 * an owner deleted with `orphan` has its uid stripped from every dependent before
 * that finalizer goes. Cluster-scoped owners of namespaced dependents work; a
 * namespaced owner in another namespace counts as absent, as in kube. It is
 * a controller on the Manager whose only source is its monitors (a raw source:
 * one informer per deletable kind, re-discovered); its requests name an object
 * by uid (`{name: uid}`), since an owner reference names its owner by uid and
 * a `{namespace, name}` can outlive the object it named. Every decision is
 * re-derived from the graph and the API.
 */
import type { KubeObject, OwnerReference } from "../../api/index.js";
import { type Client, getOptional, ignoreNotFound } from "../../client/index.js";
import {
  type BuiltController,
  DONE,
  type Manager,
  type ReconcileResult,
  type Request,
  type RequestQueue,
  requestKey,
  runOnOwnManager,
  type TypedReconciler,
} from "../../runtime/index.js";
import { FOREGROUND, Graph, type GraphNode, nodeOf, ORPHAN } from "./graph.js";
import { isCrd, Monitors } from "./monitors.js";

const FIELD_MANAGER = "hearth-garbage-collector";

/** The GC's request: the object whose uid stands in `name`. */
const byUid = (uid: string): Request => ({ name: uid });

export class GarbageCollector implements TypedReconciler {
  readonly graph = new Graph();
  /** The built controller, once registered (tests read its queue). */
  controller: BuiltController | undefined;

  constructor(
    private readonly client: Client,
    private readonly opts: {
      onError?(key: string, err: unknown): void;
      resyncDiscoveryMs?: number;
    } = {},
  ) {}

  /** Runs the collector on `manager`, its monitors on the shared informers. */
  register(manager: Manager): void {
    this.controller = manager
      .controller("garbage-collector")
      .workers(2)
      .onError((_c, req, e) => this.opts.onError?.(requestKey(req), e))
      .watchesRaw((queue, signal) => this.monitors(manager, queue).run(signal))
      .complete(this);
  }

  /** One informer per deletable kind, feeding the graph and `queue`. */
  private monitors(manager: Manager, queue: RequestQueue): Monitors {
    const monitors: Monitors = new Monitors(
      this.client,
      manager.cache,
      {
        onAdd: (o) => this.observe(o, monitors, queue),
        onUpdate: (_old, o) => this.observe(o, monitors, queue),
        onDelete: (o) => this.forget(o, monitors, queue),
      },
      {
        resyncDiscoveryMs: this.opts.resyncDiscoveryMs,
        clock: manager.clock,
        onError: (e) => this.opts.onError?.("monitors", e),
      },
    );
    return monitors;
  }

  /** Runs alone, on a Manager of its own, until `signal` aborts. */
  run(signal: AbortSignal): Promise<void> {
    return runOnOwnManager(this.client, signal, (m) => this.register(m));
  }

  private observe(obj: KubeObject, monitors: Monitors, queue: RequestQueue): void {
    if (isCrd(obj)) monitors.refresh();
    const node = nodeOf(obj);
    if (!node.uid) return;
    this.graph.upsert(node);
    if (
      node.owners.length > 0 ||
      node.finalizers.includes(ORPHAN) ||
      node.finalizers.includes(FOREGROUND)
    )
      queue.add(byUid(node.uid));
    // An owner waiting in the foreground re-checks when a dependent changes.
    for (const o of node.owners) if (this.graph.get(o.uid)?.deleting) queue.add(byUid(o.uid));
  }

  private forget(obj: KubeObject, monitors: Monitors, queue: RequestQueue): void {
    if (isCrd(obj)) monitors.refresh();
    const uid = obj.metadata.uid;
    if (!uid) return;
    const node = this.graph.remove(uid);
    for (const d of this.graph.dependentsOf(uid)) queue.add(byUid(d.uid));
    for (const o of node?.owners ?? []) queue.add(byUid(o.uid));
  }

  async reconcile(req: Request): Promise<ReconcileResult> {
    const node = this.graph.get(req.name);
    if (!node) return DONE;
    if (node.deleting && node.finalizers.includes(ORPHAN)) return this.orphanDependents(node);
    if (node.deleting && node.finalizers.includes(FOREGROUND))
      return this.deleteDependentsFirst(node);
    if (node.owners.length === 0 || node.deleting) return DONE;
    return this.collectIfOwnersGone(node);
  }

  private async collectIfOwnersGone(node: GraphNode): Promise<ReconcileResult> {
    const solid: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of node.owners) {
      const state = await this.ownerState(node, ref);
      if (state === "solid") solid.push(ref);
      else if (state === "waiting") waiting.push(ref);
    }
    if (solid.length > 0) {
      if (solid.length < node.owners.length) await this.setOwners(node, solid);
      return DONE;
    }
    const policy =
      waiting.length > 0 && this.graph.dependentsOf(node.uid).length > 0
        ? "Foreground"
        : node.finalizers.includes(ORPHAN)
          ? "Orphan"
          : node.finalizers.includes(FOREGROUND)
            ? "Foreground"
            : "Background";
    const opts = { propagationPolicy: policy, preconditions: { uid: node.uid } } as const;
    await ignoreNotFound(this.client.delete(node, opts));
    return DONE;
  }

  /** solid: the owner exists; waiting: it is being deleted in the foreground; dangling: it is gone. */
  private async ownerState(
    node: GraphNode,
    ref: OwnerReference,
  ): Promise<"solid" | "waiting" | "dangling"> {
    const known = this.graph.get(ref.uid);
    // As kube: a namespaced owner counts only in the dependent's own namespace.
    if (known?.namespace !== undefined && known.namespace !== node.namespace) return "dangling";
    let owner: { deleting: boolean; finalizers: string[] } | undefined = known;
    if (!owner) {
      // The graph may lag behind; ask the API before calling an owner gone.
      const live = await getOptional(this.client, {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        name: ref.name,
        namespace: node.namespace,
      });
      if (!live || live.metadata.uid !== ref.uid) return "dangling";
      owner = nodeOf(live);
    }
    return owner.deleting && owner.finalizers.includes(FOREGROUND) ? "waiting" : "solid";
  }

  private async deleteDependentsFirst(owner: GraphNode): Promise<ReconcileResult> {
    const dependents = this.graph.dependentsOf(owner.uid);
    for (const d of dependents) {
      if (d.deleting) continue;
      const policy = this.graph.dependentsOf(d.uid).length > 0 ? "Foreground" : "Background";
      const opts = { propagationPolicy: policy, preconditions: { uid: d.uid } } as const;
      await ignoreNotFound(this.client.delete(d, opts));
    }
    const blocking = dependents.filter((d) =>
      d.owners.some((o) => o.uid === owner.uid && o.blockOwnerDeletion),
    );
    if (blocking.length > 0) return DONE; // a dependent's removal enqueues the owner again
    await this.removeFinalizer(owner, FOREGROUND);
    return DONE;
  }

  private async orphanDependents(owner: GraphNode): Promise<ReconcileResult> {
    for (const d of this.graph.dependentsOf(owner.uid)) {
      await this.setOwners(
        d,
        d.owners.filter((o) => o.uid !== owner.uid),
      );
    }
    await this.removeFinalizer(owner, ORPHAN);
    return DONE;
  }

  /** Rewrites ownerReferences, keeping only the given owners. */
  private async setOwners(node: GraphNode, owners: OwnerReference[]): Promise<void> {
    const keep = new Set(owners.map((o) => o.uid));
    await this.patchMetadata(node, (live) => {
      const next = (live.metadata.ownerReferences ?? []).filter((o) => keep.has(o.uid));
      return { ownerReferences: next.length ? next : null };
    });
  }

  private async removeFinalizer(node: GraphNode, finalizer: string): Promise<void> {
    await this.patchMetadata(node, (live) => {
      const finalizers = (live.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      return { finalizers: finalizers.length ? finalizers : null };
    });
  }

  /**
   * A merge patch of metadata computed from the live object, pinned to its
   * resourceVersion (a concurrent write makes the runtime retry) and to its uid
   * (a recreated object of the same name is left alone).
   */
  private async patchMetadata(
    node: GraphNode,
    change: (live: KubeObject) => Record<string, unknown>,
  ): Promise<void> {
    const live = await getOptional(this.client, node);
    if (!live || live.metadata.uid !== node.uid) return;
    const metadata = { ...change(live), resourceVersion: live.metadata.resourceVersion };
    const opts = { type: "merge", fieldManager: FIELD_MANAGER } as const;
    await ignoreNotFound(this.client.patch(node, { metadata }, opts));
  }
}
