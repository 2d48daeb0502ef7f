/**
 * What the platform puts into a fresh API before the engine runs, all through
 * the client and all idempotent (server-side apply), so every start repeats it:
 * the ApplicationDefinition CRD, the DataStore CRD (which the Etcd app
 * renders), the checked-in definitions, the tenant ClusterRoles, the deletion
 * guardrails, and tenant-root (namespace and root Tenant, both labelled
 * no-delete).
 */
import type { KubeObject } from "../api/types.js";
import { type Client, ignoreNotFound } from "../client/index.js";
import { delay } from "../runtime/index.js";
import { LABEL_NO_DELETE, ROOT_NAMESPACE } from "./apps/tenant/naming.js";
import { tenantClusterRoles } from "./apps/tenant/rbac.js";
import { DATASTORE_API_VERSION, DATASTORE_CRD } from "./datastore/index.js";
import {
  type ApplicationDefinition,
  isModule,
  PLATFORM_API_VERSION,
  PLATFORM_GROUP,
  rootSchema,
} from "./definitions.js";
import { APPS_API_VERSION } from "./engine/module.js";
import { guardrailObjects } from "./guardrails.js";

const BOOTSTRAP_MANAGER = "hearth-bootstrap";

export const DEFINITION_CRD: KubeObject = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `applicationdefinitions.${PLATFORM_GROUP}` },
  spec: {
    group: PLATFORM_GROUP,
    scope: "Cluster",
    names: {
      kind: "ApplicationDefinition",
      listKind: "ApplicationDefinitionList",
      plural: "applicationdefinitions",
      singular: "applicationdefinition",
      shortNames: ["appdef"],
    },
    versions: [
      {
        name: "v1alpha1",
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: "Kind", type: "string", jsonPath: ".spec.application.kind" },
          { name: "Prefix", type: "string", jsonPath: ".spec.release.prefix" },
          {
            name: "Served",
            type: "string",
            jsonPath: '.status.conditions[?(@.type=="Served")].status',
          },
          { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
        ],
        schema: {
          openAPIV3Schema: rootSchema({
            spec: {
              type: "object",
              required: ["application", "release"],
              properties: {
                application: {
                  type: "object",
                  required: ["kind", "plural", "singular", "openAPISchema"],
                  properties: {
                    kind: { type: "string", pattern: "^[A-Z][A-Za-z0-9]*$" },
                    plural: { type: "string", pattern: "^[a-z][a-z0-9]*$" },
                    singular: { type: "string", pattern: "^[a-z][a-z0-9]*$" },
                    openAPISchema: { type: "string" },
                  },
                },
                release: {
                  type: "object",
                  required: ["prefix"],
                  properties: {
                    prefix: { type: "string" },
                    labels: { type: "object", additionalProperties: { type: "string" } },
                  },
                },
                dashboard: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
              },
            },
          }),
        },
      },
    ],
  },
};

async function waitServed(
  client: Client,
  apiVersion: string,
  kind: string,
  signal: AbortSignal,
): Promise<void> {
  for (;;) {
    if (await ignoreNotFound(client.list({ apiVersion, kind }, { limit: 1 }))) return;
    if (signal.aborted) throw new Error(`stopped while waiting for ${kind} to be served`);
    await delay(100, signal);
  }
}

/** The first part: everything the engine needs before it starts. */
export async function bootstrapPlatform(
  client: Client,
  definitions: ApplicationDefinition[],
  signal: AbortSignal,
): Promise<void> {
  const apply = (o: KubeObject) =>
    client.apply(o, { fieldManager: BOOTSTRAP_MANAGER, force: true });
  await apply(DEFINITION_CRD);
  await waitServed(client, PLATFORM_API_VERSION, "ApplicationDefinition", signal);
  await apply(DATASTORE_CRD);
  await waitServed(client, DATASTORE_API_VERSION, "DataStore", signal);
  for (const def of definitions) await apply(def);
  const adminPlurals = definitions
    .filter((d) => !isModule(d) && d.spec.application.kind !== "Tenant")
    .map((d) => d.spec.application.plural);
  const appPlurals = definitions.map((d) => d.spec.application.plural);
  for (const role of tenantClusterRoles(appPlurals, adminPlurals)) await apply(role);
  for (const o of guardrailObjects()) await apply(o);
  await apply({
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: ROOT_NAMESPACE, labels: { [LABEL_NO_DELETE]: "true" } },
  });
}

/** The second part, once the engine serves Tenants: the root Tenant. */
export async function ensureRootTenant(client: Client, signal: AbortSignal): Promise<void> {
  await waitServed(client, APPS_API_VERSION, "Tenant", signal);
  await client.apply(
    {
      apiVersion: APPS_API_VERSION,
      kind: "Tenant",
      metadata: { name: "root", namespace: ROOT_NAMESPACE, labels: { [LABEL_NO_DELETE]: "true" } },
    },
    { fieldManager: BOOTSTRAP_MANAGER, force: true },
  );
}
