/**
 * kube's ResourceQuota admission plugin (validating; it runs last, after every
 * other check). For a create — or an update that can change usage, such as a
 * claim's storage growing — in a namespace with quotas, it checks the object's
 * usage against each matching quota (`quota-check.ts`) and, unless dry run,
 * charges it into the quota's `status.used` before the object is written. The
 * charge is an optimistic-concurrency write of the stored quota, and this
 * server's checks run one at a time: two requests racing for the last unit
 * cannot both win. A quota whose write conflicted (with the controller) is
 * re-read and checked again, a few times; the quota controller later measures
 * the namespace and releases what deletions (or refused writes) left over.
 */
import { ConflictError, ForbiddenError } from "../../api/errors.js";
import { evaluatorFor, quotaIgnores, type ResourceQuota } from "../../api/quota-usage.js";
import { listsEqual } from "../../api/resource-list.js";
import type { Backend } from "../../storage/backend.js";
import { serialized } from "../resources/cluster-ip.js";
import type { ResourceRegistry } from "../resources/registry.js";
import type { ResourceType } from "../resources/resource-type.js";
import { ObjectStore } from "../store/object-store.js";
import { chargeQuotas, QuotaRefusal, type QuotaRequest } from "./quota-check.js";
import type { AdmissionAttributes, AdmissionPlugin } from "./types.js";

/** Re-checks after a conflicting quota write, as kube's evaluator retries. */
const RETRIES = 3;

export class ResourceQuotaAdmission implements AdmissionPlugin {
  readonly name = "ResourceQuota";
  private readonly store: ObjectStore;

  constructor(
    backend: Backend,
    private readonly registry: ResourceRegistry,
  ) {
    this.store = new ObjectStore(backend);
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
    if ((await this.quotas(quotaType, attrs.namespace)).length === 0) return [];
    // One check-and-charge at a time in this server, as kube's evaluator works a namespace's
    // requests in one worker; the revision check still guards against other writers.
    await serialized(this, () => this.charge(attrs, quotaType, req));
    return [];
  }

  private async charge(
    attrs: AdmissionAttributes,
    quotaType: ResourceType,
    req: QuotaRequest,
  ): Promise<void> {
    let quotas = await this.quotas(quotaType, attrs.namespace);
    for (let attempt = 0; quotas.length > 0; attempt++) {
      const charges = this.check(attrs, quotas, req);
      if (attrs.dryRun) return;
      const conflicted = new Set<string>();
      let lastConflict: ConflictError | undefined;
      for (const { quota, used } of charges) {
        if (listsEqual(quota.status?.used ?? {}, used)) continue;
        try {
          const next = { ...quota, status: { ...quota.status, used } };
          await this.store.update(quotaType, next, Number(quota.metadata.resourceVersion));
        } catch (e) {
          if (!(e instanceof ConflictError)) throw e;
          conflicted.add(quota.metadata.name ?? "");
          lastConflict = e;
        }
      }
      if (!lastConflict) return;
      if (attempt === RETRIES) throw lastConflict;
      quotas = (await this.quotas(quotaType, attrs.namespace)).filter((q) =>
        conflicted.has(q.metadata.name ?? ""),
      );
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

  private async quotas(t: ResourceType, namespace: string): Promise<ResourceQuota[]> {
    return (await this.store.list(t, { namespace })).items as ResourceQuota[];
  }
}
