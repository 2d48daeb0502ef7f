/**
 * What the platform puts into a fresh API before the engine runs, all through
 * the client and all idempotent (server-side apply), so every start repeats it:
 * the ApplicationDefinition CRD and every component's CRDs (`crds.ts`), the
 * definitions, the no-delete guardrail, and each component's bootstrap objects
 * (the tenant ClusterRoles, the tenant-namespace guardrail, tenant-root); then,
 * once the controllers run, each component's seeds (the root Tenant).
 */
import type { KubeObject } from "../api/index.js";
import type { Client } from "../client/index.js";
import { type AssembledPlatform, appModules } from "./assemble.js";
import { installCrds, waitServed } from "./crds.js";
import { crdFor, PLATFORM_GROUP, rootSchema } from "./definitions.js";
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

/** The first part: everything the engine and the controllers need before they start. */
export async function bootstrapPlatform(
  client: Client,
  platform: AssembledPlatform,
  signal: AbortSignal,
): Promise<void> {
  const { components, ctx } = platform;
  const crds = [DEFINITION_CRD, ...components.flatMap((c) => c.crds ?? [])];
  await installCrds(client, crds, BOOTSTRAP_MANAGER, signal);
  const apply = (o: KubeObject) =>
    client.apply(o, { fieldManager: BOOTSTRAP_MANAGER, force: true });
  for (const def of ctx.definitions.values()) await apply(def);
  for (const o of guardrailObjects()) await apply(o);
  for (const c of components) for (const o of c.bootstrap?.(ctx) ?? []) await apply(o);
}

/** The second part, once the controllers run: each seed, as soon as its kind is served. */
export async function applySeeds(
  client: Client,
  platform: AssembledPlatform,
  signal: AbortSignal,
): Promise<void> {
  for (const c of platform.components)
    for (const seed of c.seeds?.(platform.ctx) ?? []) {
      await waitServed(client, seed.apiVersion, seed.kind, signal);
      await client.apply(seed, { fieldManager: BOOTSTRAP_MANAGER, force: true });
    }
}

/** A kind as clients find it: group, version, kind and resource name. */
export interface ServedKindRef {
  group: string;
  version: string;
  kind: string;
  plural: string;
}

function kindsOfCrd(crd: KubeObject): ServedKindRef[] {
  const spec = crd.spec as {
    group: string;
    names: { kind: string; plural: string };
    versions: { name: string; served: boolean }[];
  };
  return spec.versions
    .filter((v) => v.served)
    .map((v) => ({
      group: spec.group,
      version: v.name,
      kind: spec.names.kind,
      plural: spec.names.plural,
    }));
}

/**
 * Every kind the platform serves once it has started: the CRDs bootstrap
 * installs (the ApplicationDefinition CRD and every component's) and the kind
 * of every app module (the engine serves an ApplicationDefinition only when a
 * module backs it).
 */
export function kindsServedAtStart(platform: AssembledPlatform): ServedKindRef[] {
  const crds = [DEFINITION_CRD, ...platform.components.flatMap((c) => c.crds ?? [])];
  return [
    ...crds.flatMap(kindsOfCrd),
    ...appModules(platform.components, platform.ctx).flatMap((m) =>
      kindsOfCrd(crdFor(m.definition, m.statusFields)),
    ),
  ];
}
