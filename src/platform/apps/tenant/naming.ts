/**
 * The tenant tree's names (Cozystack `computeTenantNamespace`): a Tenant `a` in
 * `tenant-root` owns `tenant-a`; a Tenant `b` in `tenant-a` owns `tenant-a-b`.
 * Tenant names have no dashes, so a namespace name spells its ancestry.
 */
export const ROOT_NAMESPACE = "tenant-root";
export const TENANT_NAME_PATTERN = /^[a-z][a-z0-9]*$/;
export const MAX_NAMESPACE_LENGTH = 63;

export { LABEL_NO_DELETE } from "../../guardrails.js";
/** `tenant.cozystack.io/<ancestor namespace>: ""` on every namespace of the subtree. */
export const TENANT_LABEL_PREFIX = "tenant.cozystack.io/";
/** Annotation on a tenant namespace: the namespace its Tenant object lives in. */
export const PARENT_ANNOTATION = "tenant.cozystack.io/parent-namespace";

export function tenantNamespace(parentNamespace: string, name: string): string {
  return parentNamespace === ROOT_NAMESPACE ? `tenant-${name}` : `${parentNamespace}-${name}`;
}

/** `tenant-a-b` → `[tenant-root, tenant-a, tenant-a-b]`. */
export function ancestry(namespace: string): string[] {
  if (namespace === ROOT_NAMESPACE) return [ROOT_NAMESPACE];
  const parts = namespace.split("-").slice(1);
  const out = [ROOT_NAMESPACE];
  for (let i = 1; i <= parts.length; i++) out.push(`tenant-${parts.slice(0, i).join("-")}`);
  return out;
}

export function isTenantNamespace(
  name: string,
  labels: Record<string, string> | undefined,
): boolean {
  return (
    name === ROOT_NAMESPACE || labels?.[`${TENANT_LABEL_PREFIX}${ROOT_NAMESPACE}`] !== undefined
  );
}

/** Why `name` cannot be a Tenant in `parentNamespace`, or undefined. */
export function tenantNameProblem(parentNamespace: string, name: string): string | undefined {
  if (!TENANT_NAME_PATTERN.test(name))
    return `must match ${TENANT_NAME_PATTERN.source}: lowercase letters and digits, starting with a letter (no dashes: the dash separates the tenant tree in namespace names)`;
  const ns = tenantNamespace(parentNamespace, name);
  if (ns.length > MAX_NAMESPACE_LENGTH)
    return `the tenant's namespace "${ns}" would be ${ns.length} characters long, over the ${MAX_NAMESPACE_LENGTH}-character limit of namespace names`;
  return undefined;
}
