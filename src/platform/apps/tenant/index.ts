/**
 * The Tenant app (Cozystack packages/apps/tenant). A Tenant renders its
 * namespace (owned by the parent namespace, labelled with every ancestor), the
 * values Secret its children render with, the four RBAC bindings, quota and
 * limits, and one module app per enabled module. Its `preDelete` hook is
 * Cozystack's pre-delete order made reliable: delete the namespace's
 * applications and wait for them to be gone (child Tenants go the same way,
 * deepest first), then its modules; only then does the engine delete the
 * namespace and the rest.
 */
import type { KubeObject } from "../../../api/index.js";
import {
  type Client,
  getOptional,
  ignoreNotFound,
  type Reader,
  refOf,
  type TypeRef,
} from "../../../client/index.js";
import type { Component, ComponentContext } from "../../component.js";
import { type ApplicationDefinition, isModule } from "../../definitions.js";
import { valuesSecret } from "../../engine/context.js";
import {
  APPS_API_VERSION,
  type App,
  type AppModule,
  type HookContext,
  type HookResult,
  LABEL_TENANT_MODULE,
  type SpecShape,
  type TenantContext,
  type WorkloadReport,
} from "../../engine/module.js";
import { tenantAdmission } from "./admission.js";
import { tenantGuardrail } from "./guardrail.js";
import { TENANT_MODULES } from "./modules.js";
import {
  ancestry,
  LABEL_NO_DELETE,
  PARENT_ANNOTATION,
  ROOT_NAMESPACE,
  TENANT_LABEL_PREFIX,
  tenantNamespace,
} from "./naming.js";
import { quotaObjects } from "./quota.js";
import { tenantClusterRoles, tenantRoleBindings } from "./rbac.js";

export { ALLOW_DIRECT_DELETE_LABEL } from "./guardrail.js";
export { TENANT_MODULES } from "./modules.js";
export { ROOT_NAMESPACE } from "./naming.js";

interface TenantSpec {
  host?: string;
  etcd?: boolean;
  monitoring?: boolean;
  ingress?: boolean;
  seaweedfs?: boolean;
  schedulingClass?: string;
  resourceQuotas?: Record<string, string | number>;
}

/** TenantSpec as the Tenant's definition declares it (checked by the engine once). */
const TENANT_SPEC: SpecShape<TenantSpec> = {
  host: "string",
  etcd: "boolean",
  monitoring: "boolean",
  ingress: "boolean",
  seaweedfs: "boolean",
  schedulingClass: "string",
  resourceQuotas: "object",
};

/** `_namespace` for the tenant's children (Cozystack's inheritance rules). */
export function childValues(app: App<TenantSpec>, context: TenantContext): Record<string, string> {
  const spec = app.spec ?? {};
  const ns = ownNamespace(app);
  const root = ns === app.metadata.namespace;
  const parent = root ? {} : context.namespace;
  const parentHost = root ? (context.cluster["root-host"] ?? "") : (parent.host ?? "");
  const host =
    spec.host || (root ? parentHost : parentHost ? `${app.metadata.name}.${parentHost}` : "");
  const out: Record<string, string> = { host };
  for (const module of Object.keys(TENANT_MODULES))
    out[module] = spec[module as keyof TenantSpec] === true ? ns : (parent[module] ?? "");
  const schedulingClass = spec.schedulingClass || parent.schedulingClass || "";
  if (schedulingClass) out.schedulingClass = schedulingClass;
  return out;
}

export function ownNamespace(app: KubeObject): string {
  return tenantNamespace(app.metadata.namespace!, app.metadata.name!);
}

function namespaceObject(
  app: App<TenantSpec>,
  context: TenantContext,
  values: Record<string, string>,
): KubeObject {
  const ns = ownNamespace(app);
  const root = ns === app.metadata.namespace;
  const labels: Record<string, string> = {};
  for (const a of ancestry(ns)) labels[`${TENANT_LABEL_PREFIX}${a}`] = "";
  for (const key of ["etcd", "ingress", "monitoring", "seaweedfs", "host"])
    labels[`namespace.cozystack.io/${key}`] = values[key] ?? "";
  if (root) labels[LABEL_NO_DELETE] = "true";
  // Tenants run no privileged pods and mount no host paths (docs/security.md).
  labels["pod-security.kubernetes.io/enforce"] = "baseline";
  const parent = context.appNamespace;
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: {
      name: ns,
      labels,
      ...(root ? {} : { annotations: { [PARENT_ANNOTATION]: app.metadata.namespace! } }),
      ...(!root && parent?.metadata.uid
        ? {
            ownerReferences: [
              {
                apiVersion: "v1",
                kind: "Namespace",
                name: parent.metadata.name!,
                uid: parent.metadata.uid,
              },
            ],
          }
        : {}),
    },
  };
}

export function renderTenant(
  app: App<TenantSpec>,
  context: TenantContext,
  servedModules: ReadonlySet<string>,
): KubeObject[] {
  const spec = app.spec ?? {};
  const ns = ownNamespace(app);
  const values = childValues(app, context);
  const modules: KubeObject[] = Object.entries(TENANT_MODULES)
    .filter(([flag, kind]) => spec[flag as keyof TenantSpec] === true && servedModules.has(kind))
    .map(([flag, kind]) => ({
      apiVersion: APPS_API_VERSION,
      kind,
      metadata: { name: flag, namespace: ns, labels: { [LABEL_TENANT_MODULE]: "true" } },
      spec: {},
    }));
  return [
    namespaceObject(app, context, values),
    valuesSecret(ns, { namespace: values, cluster: context.cluster }),
    ...tenantRoleBindings(ns),
    ...quotaObjects(ns, spec.resourceQuotas ?? {}),
    ...modules,
  ];
}

async function tenantStatus(app: App, reader: Reader): Promise<WorkloadReport> {
  const ns = ownNamespace(app);
  const fields = { namespace: ns };
  const obj = await getOptional(reader, { apiVersion: "v1", kind: "Namespace", name: ns });
  if (!obj)
    return {
      ready: false,
      reason: "NamespaceMissing",
      message: `namespace ${ns} does not exist yet`,
      fields,
    };
  const phase = (obj.status as { phase?: string } | undefined)?.phase;
  if (phase === "Active" || phase === undefined)
    return { ready: true, reason: "NamespaceActive", message: `namespace ${ns} is active`, fields };
  return {
    ready: false,
    reason: "NamespaceNotActive",
    message: `namespace ${ns} is ${phase}`,
    fields,
  };
}

/** The apps in `namespace`, of every served kind; a kind no longer served has none. */
async function appsIn(
  client: Client,
  kinds: readonly string[],
  namespace: string,
): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const kind of kinds) {
    const list = await ignoreNotFound(
      client.list({ apiVersion: APPS_API_VERSION, kind }, { namespace }),
    );
    out.push(...(list?.items ?? []));
  }
  return out;
}

const describe = (o: KubeObject) => `${o.kind}/${o.metadata.name}`;

/** Deletes `apps` not yet being deleted; done when none is left. */
async function deleteAndWait(
  client: Client,
  apps: KubeObject[],
  what: string,
): Promise<HookResult> {
  if (apps.length === 0) return { done: true };
  for (const a of apps) {
    if (a.metadata.deletionTimestamp) continue;
    await ignoreNotFound(client.delete(refOf(a)));
  }
  const names = apps.slice(0, 5).map(describe).join(", ");
  return { done: false, waitingFor: `${apps.length} ${what} to be deleted (${names})` };
}

async function preDelete({ app, client, appKinds }: HookContext): Promise<HookResult> {
  const ns = ownNamespace(app);
  if (ns === ROOT_NAMESPACE) return { done: true };
  const apps = await appsIn(client, appKinds, ns);
  const isModule = (a: KubeObject) => a.metadata.labels?.[LABEL_TENANT_MODULE] === "true";
  const applications = await deleteAndWait(
    client,
    apps.filter((a) => !isModule(a)),
    "applications",
  );
  if (!applications.done) return applications;
  return deleteAndWait(client, apps.filter(isModule), "modules");
}

/** The kinds `renderTenant` returns: the namespace and what lives in it, and the module apps. */
export function tenantChildKinds(servedModules: ReadonlySet<string>): TypeRef[] {
  return [
    { apiVersion: "v1", kind: "Namespace" },
    { apiVersion: "v1", kind: "Secret" },
    { apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding" },
    { apiVersion: "v1", kind: "ResourceQuota" },
    { apiVersion: "v1", kind: "LimitRange" },
    ...Object.values(TENANT_MODULES)
      .filter((kind) => servedModules.has(kind))
      .map((kind) => ({ apiVersion: APPS_API_VERSION, kind })),
  ];
}

export function tenantModule(
  definition: ApplicationDefinition,
  servedModules: ReadonlySet<string>,
): AppModule<TenantSpec> {
  return {
    definition,
    version: "0.1.0",
    spec: TENANT_SPEC,
    render: (app, context) => renderTenant(app, context, servedModules),
    childKinds: tenantChildKinds(servedModules),
    // Everything a Tenant renders lives in the namespace it owns, or is that namespace.
    scope: (app) => ({
      namespaces: [ownNamespace(app)],
      clusterScoped: [{ apiVersion: "v1", kind: "Namespace", name: ownNamespace(app) }],
    }),
    status: tenantStatus,
    statusFields: { namespace: { type: "string" } },
    hooks: {
      permissions: [{ apiVersion: APPS_API_VERSION, kind: "*", verbs: ["get", "list", "delete"] }],
      preDelete,
    },
  };
}

/** The four tenant ClusterRoles over every app kind; admin writes all but modules and Tenants. */
function clusterRoles({ definitions }: ComponentContext): KubeObject[] {
  const defs = [...definitions.values()];
  const adminPlurals = defs
    .filter((d) => !isModule(d) && d.spec.application.kind !== "Tenant")
    .map((d) => d.spec.application.plural);
  return tenantClusterRoles(
    defs.map((d) => d.spec.application.plural),
    adminPlurals,
  );
}

/** The tenant tree: the Tenant app, its roles, guardrail and admission, and tenant-root. */
export const tenantComponent: Component = {
  name: "tenant",
  apps: [{ kind: "Tenant", module: (def, ctx) => tenantModule(def, ctx.servedModules) }],
  admission: [tenantAdmission],
  bootstrap: (ctx) => [
    ...clusterRoles(ctx),
    ...tenantGuardrail(),
    {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: ROOT_NAMESPACE, labels: { [LABEL_NO_DELETE]: "true" } },
    },
  ],
  seeds: () => [
    {
      apiVersion: APPS_API_VERSION,
      kind: "Tenant",
      metadata: { name: "root", namespace: ROOT_NAMESPACE, labels: { [LABEL_NO_DELETE]: "true" } },
    },
  ],
};
