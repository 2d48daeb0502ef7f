/**
 * kube's ResourceQuota admission plugin (validating; it runs last, after every
 * other check). For a create — or an update that can change usage, such as a
 * claim's storage growing — in a namespace with quotas, it checks the object's
 * usage against each matching quota (`quota-check.ts`) and, unless dry run,
 * charges it into the quota's `status.used` before the object is written.
 *
 * The namespace's quotas come from a watch-fed cache (store/object-cache.ts),
 * as kube's evaluator reads a quota lister: a namespace without quotas costs no
 * storage read. The charge is an optimistic-concurrency write at the cached
 * quota's resourceVersion, and this server's checks in one namespace run one
 * at a time: two requests racing for the last unit cannot both win, through
 * one apiserver or several. A quota whose write conflicted (the cache lagged another writer) is
 * read from storage and checked again, a few times; the stored result of a
 * charge goes into the cache at once, so back-to-back creates do not wait for
 * the watch. The quota controller later measures the namespace and releases
 * what deletions (or refused writes) left over.
 */
import {
  ConflictError,
  evaluatorFor,
  ForbiddenError,
  listsEqual,
  NotFoundError,
  quotaIgnores,
  type ResourceQuota,
} from "../../api/index.js";
import type { Backend } from "../../storage/index.js";
import type { ResourceRegistry } from "../resources/registry.js";
import type { ResourceType } from "../resources/resource-type.js";
import type { FollowedPrefix } from "../store/cache-sync.js";
import { ObjectCache } from "../store/object-cache.js";
import { ObjectStore } from "../store/object-store.js";
import { chargeQuotas, QuotaRefusal, type QuotaRequest } from "./quota-check.js";
import type { AdmissionAttributes, AdmissionPlugin } from "./types.js";

/** Re-checks after a conflicting quota write, as kube's evaluator retries. */
const RETRIES = 3;
const QUOTAS = { group: "", plural: "resourcequotas", namespaced: true };

export class ResourceQuotaAdmission implements AdmissionPlugin {
  readonly name = "ResourceQuota";
  private readonly store: ObjectStore;
  private readonly cache: ObjectCache;
  /** The last charge queued in each namespace that has charges in flight. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    backend: Backend,
    private readonly registry: ResourceRegistry,
    log?: (msg: string, err?: unknown) => void,
  ) {
    this.store = new ObjectStore(backend);
    this.cache = new ObjectCache(backend, QUOTAS, log);
  }

  /** Loads the quotas, then follows them until `signal` aborts. */
  start(signal: AbortSignal): Promise<void> {
    return this.cache.start(signal);
  }

  followed(): FollowedPrefix {
    return this.cache.followed();
  }

  async validate(attrs: AdmissionAttributes): Promise<string[]> {
    const op = attrs.operation;
    if (attrs.subresource !== "" || !attrs.type.namespaced || !attrs.object) return [];
    if (op !== "CREATE" && op !== "UPDATE") return [];
    const gr = { group: attrs.type.group, resource: attrs.type.plural };
    if (quotaIgnores(gr)) return [];
    const evaluator = evaluatorFor(gr);
    if (!evaluator.handles(op, attrs.object, attrs.oldObject)) return [];
    const quotaType = this.registry.lookup("", "v1", "resourcequotas");
    if (!quotaType) return [];
    const req: QuotaRequest = {
      evaluator,
      operation: op,
      object: attrs.object,
      ...(attrs.oldObject ? { oldObject: attrs.oldObject } : {}),
      now: Date.now(),
    };
    if (this.cached(attrs.namespace).length === 0) return [];
    await this.inTurn(attrs.namespace, () => this.charge(attrs, quotaType, req));
    return [];
  }

  /**
   * Runs `fn` after the earlier charges in `namespace`: one check-and-charge at a time per
   * namespace in this server, as kube's evaluator works a namespace's requests in one
   * worker (quotas of other namespaces are other objects); the revision check still
   * guards against other writers.
   */
  private inTurn(namespace: string, fn: () => Promise<void>): Promise<void> {
    const run = (this.queues.get(namespace) ?? Promise.resolve()).then(fn);
    const settled = run.catch(() => undefined);
    this.queues.set(namespace, settled);
    void settled.then(() => {
      if (this.queues.get(namespace) === settled) this.queues.delete(namespace);
    });
    return run;
  }

  private async charge(
    attrs: AdmissionAttributes,
    quotaType: ResourceType,
    req: QuotaRequest,
  ): Promise<void> {
    let quotas = this.cached(attrs.namespace);
    for (let attempt = 0; quotas.length > 0; attempt++) {
      const charges = this.check(attrs, quotas, req);
      if (attrs.dryRun) return;
      const conflicted = new Set<string>();
      let lastConflict: ConflictError | undefined;
      for (const { quota, used } of charges) {
        if (listsEqual(quota.status?.used ?? {}, used)) continue;
        try {
          const next = { ...quota, status: { ...quota.status, used } };
          const rv = Number(quota.metadata.resourceVersion);
          this.cache.remember(await this.store.update(quotaType, next, rv));
        } catch (e) {
          // A quota deleted meanwhile (the cache had not seen it yet) limits nothing.
          if (e instanceof NotFoundError) continue;
          if (!(e instanceof ConflictError)) throw e;
          conflicted.add(quota.metadata.name ?? "");
          lastConflict = e;
        }
      }
      if (!lastConflict) return;
      if (attempt === RETRIES) throw lastConflict;
      quotas = await this.stored(quotaType, attrs.namespace, conflicted);
    }
  }

  private check(attrs: AdmissionAttributes, quotas: ResourceQuota[], req: QuotaRequest) {
    try {
      return chargeQuotas(quotas, req);
    } catch (e) {
      if (!(e instanceof QuotaRefusal)) throw e;
      throw new ForbiddenError(
        { group: attrs.type.group, resource: attrs.type.plural, name: attrs.name },
        e.message,
      );
    }
  }

  private cached(namespace: string): ResourceQuota[] {
    return this.cache.list(namespace) as ResourceQuota[];
  }

  /** The namespace's quotas named in `names`, read from storage (and remembered). */
  private async stored(
    t: ResourceType,
    namespace: string,
    names: Set<string>,
  ): Promise<ResourceQuota[]> {
    const { items } = await this.store.list(t, { namespace });
    const quotas = items.filter((q) => names.has(q.metadata.name ?? "")) as ResourceQuota[];
    for (const q of quotas) this.cache.remember(q);
    return quotas;
  }
}
