/**
 * The Tenant's admission rule, beyond its schema: its name matches
 * `^[a-z][a-z0-9]*$` and its namespace fits 63 characters; it lives in a
 * tenant namespace; a module flag whose app has no backend in this version is
 * refused; its quota may not exceed what its parent tenant has left (the
 * parent's `tenant-quota` minus what its other child tenants were given).
 */
import {
  addLists,
  compareQuantities,
  type FieldError,
  forbiddenValue,
  invalidValue,
  maskList,
  type ResourceList,
  subtractLists,
} from "../../../api/index.js";
import { getOptional, type Reader } from "../../../client/index.js";
import type { AdmissionRule, AppAdmissionRequest, ComponentContext } from "../../component.js";
import { APPS_API_VERSION } from "../../engine/module.js";
import { TENANT_MODULES } from "./modules.js";
import { isTenantNamespace, tenantNameProblem } from "./naming.js";
import { hardLimits, QUOTA_NAME } from "./quota.js";

type Quotas = Record<string, string | number>;

export const tenantAdmission: AdmissionRule = {
  kind: "Tenant",
  check: (req, reader, ctx) => tenantErrors(req, reader, ctx),
};

async function tenantErrors(
  req: AppAdmissionRequest,
  reader: Reader | undefined,
  ctx: ComponentContext,
): Promise<FieldError[]> {
  const tenant = req.object!;
  const errors: FieldError[] = [];
  if (req.operation === "CREATE") {
    const problem = tenantNameProblem(req.namespace, req.name);
    if (problem) errors.push(invalidValue("metadata.name", req.name, problem));
  }
  const spec = (tenant.spec ?? {}) as Record<string, unknown>;
  for (const [flag, kind] of Object.entries(TENANT_MODULES))
    if (spec[flag] === true && !ctx.servedModules.has(kind))
      errors.push(
        forbiddenValue(
          `spec.${flag}`,
          `the ${flag} module (${kind}) is not available in this version of Hearth`,
        ),
      );
  if (errors.length === 0 && reader) {
    errors.push(...(await placement(reader, req.namespace)));
    errors.push(...(await quotaErrors(reader, req, (spec.resourceQuotas ?? {}) as Quotas)));
  }
  return errors;
}

async function placement(reader: Reader, namespace: string): Promise<FieldError[]> {
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

async function quotaErrors(
  reader: Reader,
  req: AppAdmissionRequest,
  quotas: Quotas,
): Promise<FieldError[]> {
  if (Object.keys(quotas).length === 0) return [];
  const quota = await getOptional(reader, {
    apiVersion: "v1",
    kind: "ResourceQuota",
    name: QUOTA_NAME,
    namespace: req.namespace,
  });
  if (!quota) return [];
  const parentHard = (quota.spec as { hard?: Record<string, string> } | undefined)?.hard ?? {};
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
