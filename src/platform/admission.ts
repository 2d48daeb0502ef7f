/**
 * The platform's admission checks on app objects, run inside the apiserver's
 * admission chain (the CLI wires them in; the apiserver knows nothing of apps):
 * - an app's spec holds only the keys its schema declares, and none starting
 *   with `_` (Cozystack reserves them for `_namespace` and `_cluster`);
 * - a Tenant's name matches `^[a-z][a-z0-9]*$` and its namespace fits 63
 *   characters; a Tenant lives in a tenant namespace;
 * - a module flag whose app has no backend in this version is refused;
 * - a Tenant's quota may not exceed what its parent tenant has left (the
 *   parent's `tenant-quota` minus what its other child tenants were given);
 * - an Etcd app is named `etcd`, has odd replicas and a size above zero, and
 *   keeps its storage class (`apps/etcd/admission.ts`).
 * Each refusal is a 422 naming the field and the rule; nothing is written.
 */
import { type FieldError, forbiddenValue, InvalidError, invalidValue } from "../api/errors.js";
import { compareQuantities } from "../api/quantity.js";
import { addLists, maskList, type ResourceList, subtractLists } from "../api/resource-list.js";
import type { KubeObject } from "../api/types.js";
import { getOptional, type Reader } from "../client/index.js";
import { etcdSpecErrors } from "./apps/etcd/index.js";
import { TENANT_MODULES } from "./apps/tenant/index.js";
import { isTenantNamespace, tenantNameProblem } from "./apps/tenant/naming.js";
import { hardLimits, QUOTA_NAME } from "./apps/tenant/quota.js";
import { APPS_API_VERSION, APPS_GROUP } from "./engine/module.js";

export interface AppAdmissionRequest {
  operation: "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
  group: string;
  kind: string;
  subresource: string;
  namespace: string;
  name: string;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
}

type Quotas = Record<string, string | number>;

export const RESERVED_KEY_MESSAGE =
  "keys starting with '_' are reserved for the platform's context (_namespace, _cluster)";

export class AppAdmission {
  /** `reader` is asked at each request: the client may exist only after the server starts. */
  constructor(
    private readonly reader: () => Reader | undefined,
    private readonly servedModules: ReadonlySet<string>,
    /** The declared top-level spec keys of each app kind. */
    private readonly specKeys: ReadonlyMap<string, readonly string[]>,
  ) {}

  async validate(req: AppAdmissionRequest): Promise<void> {
    if (req.group !== APPS_GROUP || req.subresource !== "") return;
    if (req.operation !== "CREATE" && req.operation !== "UPDATE") return;
    // Only the spec is checked: metadata changes (the engine dropping its
    // finalizer) pass even when the parent's quota shrank meanwhile.
    if (
      req.operation === "UPDATE" &&
      JSON.stringify(req.object?.spec) === JSON.stringify(req.oldObject?.spec)
    )
      return;
    const errors = this.keyErrors(req);
    if (req.kind === "Tenant" && errors.length === 0)
      errors.push(...(await this.tenantErrors(req)));
    if (req.kind === "Etcd" && errors.length === 0) errors.push(...etcdSpecErrors(req));
    if (errors.length > 0)
      throw new InvalidError({ group: APPS_GROUP, kind: req.kind, name: req.name }, errors);
  }

  private keyErrors(req: AppAdmissionRequest): FieldError[] {
    const declared = this.specKeys.get(req.kind);
    const spec = req.object?.spec;
    if (!declared || typeof spec !== "object" || spec === null) return [];
    const errors: FieldError[] = [];
    for (const key of Object.keys(spec)) {
      if (key.startsWith("_")) errors.push(forbiddenValue(`spec.${key}`, RESERVED_KEY_MESSAGE));
      else if (!declared.includes(key))
        errors.push(
          forbiddenValue(
            `spec.${key}`,
            `unknown field; the fields of ${req.kind} are: ${declared.join(", ")}`,
          ),
        );
    }
    return errors;
  }

  private async tenantErrors(req: AppAdmissionRequest): Promise<FieldError[]> {
    const tenant = req.object!;
    const errors: FieldError[] = [];
    if (req.operation === "CREATE") {
      const problem = tenantNameProblem(req.namespace, req.name);
      if (problem) errors.push(invalidValue("metadata.name", req.name, problem));
    }
    const spec = (tenant.spec ?? {}) as Record<string, unknown>;
    for (const [flag, kind] of Object.entries(TENANT_MODULES))
      if (spec[flag] === true && !this.servedModules.has(kind))
        errors.push(
          forbiddenValue(
            `spec.${flag}`,
            `the ${flag} module (${kind}) is not available in this version of Hearth`,
          ),
        );
    const reader = this.reader();
    if (errors.length === 0 && reader) {
      errors.push(...(await this.placement(reader, req.namespace)));
      errors.push(...(await this.quotaErrors(reader, req, (spec.resourceQuotas ?? {}) as Quotas)));
    }
    return errors;
  }

  private async placement(reader: Reader, namespace: string): Promise<FieldError[]> {
    const ns = await getOptional(reader, { apiVersion: "v1", kind: "Namespace", name: namespace });
    if (!ns) return [];
    if (isTenantNamespace(namespace, ns.metadata.labels)) return [];
    return [
      invalidValue(
        "metadata.namespace",
        namespace,
        "a Tenant is created in a tenant namespace (tenant-root or the namespace of another Tenant)",
      ),
    ];
  }

  private async quotaErrors(
    reader: Reader,
    req: AppAdmissionRequest,
    quotas: Quotas,
  ): Promise<FieldError[]> {
    if (Object.keys(quotas).length === 0) return [];
    let parentHard: Record<string, string>;
    const quota = await getOptional(reader, {
      apiVersion: "v1",
      kind: "ResourceQuota",
      name: QUOTA_NAME,
      namespace: req.namespace,
    });
    if (!quota) return [];
    parentHard = (quota.spec as { hard?: Record<string, string> } | undefined)?.hard ?? {};
    const siblings = (
      await reader.list(
        { apiVersion: APPS_API_VERSION, kind: "Tenant" },
        { namespace: req.namespace },
      )
    ).items.filter((t) => t.metadata.name !== req.name && !t.metadata.deletionTimestamp);
    let given: ResourceList = {};
    for (const s of siblings)
      given = addLists(
        given,
        hardLimits((s.spec as { resourceQuotas?: Quotas } | undefined)?.resourceQuotas ?? {}),
      );
    const left = subtractLists(parentHard, maskList(given, Object.keys(parentHard)));
    const errors: FieldError[] = [];
    // One error per key the user wrote (cpu limits both requests.cpu and limits.cpu).
    for (const [key, value] of Object.entries(quotas)) {
      const over = Object.entries(hardLimits({ [key]: value })).find(
        ([hardKey, v]) => left[hardKey] !== undefined && compareQuantities(v, left[hardKey]!) > 0,
      );
      if (!over) continue;
      const hardKey = over[0];
      errors.push(
        invalidValue(
          `spec.resourceQuotas.${key}`,
          value,
          `exceeds what the parent tenant has left: ${hardKey} ${left[hardKey]} of ${parentHard[hardKey]} (quota ${QUOTA_NAME} in ${req.namespace}, the rest is given to other child tenants)`,
        ),
      );
    }
    return errors;
  }
}
