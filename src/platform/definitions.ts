/**
 * ApplicationDefinition (cluster-scoped, `hearth.io/v1alpha1`), shaped as
 * Cozystack's: `spec.application{kind, singular, plural, openAPISchema}`,
 * `spec.release{prefix, labels}`, `spec.dashboard{category, singular, plural,
 * icon, keysOrder, module, …}`. Every app's definition is checked in under
 * `config/apps/`; from each one whose module exists the engine serves the kind
 * in `apps.cozystack.io/v1alpha1` as a CRD (`crdFor`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { KubeObject } from "../api/index.js";
import { errorText } from "../client/index.js";
import { APPS_GROUP, APPS_VERSION } from "./apps-api.js";

export const PLATFORM_GROUP = "hearth.io";
export const PLATFORM_API_VERSION = `${PLATFORM_GROUP}/v1alpha1`;
/** On each CRD the engine serves: the definition it came from. */
export const LABEL_DEFINITION = "hearth.io/application-definition";

export type JsonSchema = Record<string, unknown>;

export interface ApplicationDefinition extends KubeObject {
  spec: {
    application: { kind: string; singular: string; plural: string; openAPISchema: string };
    release: { prefix: string; labels?: Record<string, string> };
    dashboard?: {
      category?: string;
      singular?: string;
      plural?: string;
      icon?: string;
      keysOrder?: string[][];
      module?: boolean;
      [key: string]: unknown;
    };
  };
}

/** The definitions checked in under `dir` (one YAML file per app), by kind. */
export function loadDefinitions(dir: string): Map<string, ApplicationDefinition> {
  const out = new Map<string, ApplicationDefinition>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()) {
    const def = parse(readFileSync(join(dir, file), "utf8")) as ApplicationDefinition;
    const problem = definitionProblem(def);
    if (problem) throw new Error(`${join(dir, file)}: ${problem}`);
    out.set(def.spec.application.kind, def);
  }
  return out;
}

/** Why a definition cannot be served, or undefined when it can. */
export function definitionProblem(def: ApplicationDefinition): string | undefined {
  const app = def.spec?.application;
  if (!app?.kind || !app.plural || !app.singular)
    return "spec.application needs kind, plural and singular";
  if (typeof def.spec.release?.prefix !== "string") return "spec.release.prefix must be a string";
  let schema: unknown;
  try {
    schema = JSON.parse(app.openAPISchema);
  } catch (e) {
    return `spec.application.openAPISchema is not JSON: ${errorText(e)}`;
  }
  if (typeof schema !== "object" || schema === null || (schema as JsonSchema).type !== "object")
    return 'spec.application.openAPISchema must be a schema of type "object"';
  return undefined;
}

export function isModule(def: ApplicationDefinition): boolean {
  return def.spec.dashboard?.module === true;
}

export function appSchema(def: ApplicationDefinition): JsonSchema {
  return JSON.parse(def.spec.application.openAPISchema) as JsonSchema;
}

/** The top-level spec keys an app's schema declares. */
export function declaredKeys(def: ApplicationDefinition): string[] {
  return Object.keys((appSchema(def).properties as JsonSchema | undefined) ?? {});
}

/**
 * The spec schema as served: the app's schema, defaulted to `{}` so nested
 * defaults apply, keeping unknown top-level keys until admission, which refuses
 * them — keys starting with `_` (Cozystack reserves them for the context) and
 * any key the schema does not declare — whatever the request's fieldValidation.
 */
function specSchema(def: ApplicationDefinition): JsonSchema {
  const schema = appSchema(def);
  return { ...schema, default: schema.default ?? {}, "x-kubernetes-preserve-unknown-fields": true };
}

/**
 * A CRD's root schema: apiVersion, kind, metadata, the given fields, and a
 * status: free-form unless its fields are given; `required` names the
 * top-level fields that must be present.
 */
export function rootSchema(
  fields: Record<string, JsonSchema>,
  opts: { required?: string[]; status?: Record<string, JsonSchema> } = {},
): JsonSchema {
  return {
    type: "object",
    ...(opts.required ? { required: opts.required } : {}),
    properties: {
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { type: "object" },
      ...fields,
      status: opts.status
        ? { type: "object", properties: opts.status }
        : { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    },
  };
}

/**
 * The status every app kind is served with: what the engine writes (version,
 * observedGeneration, conditions, the inventory of its children) and the extra
 * fields its module reports. It is structural and closed, so the apiserver
 * refuses a status of the wrong shape (an inventory that is not a list of
 * entries, conditions that are not conditions) and prunes unknown fields: a
 * status the engine cannot read would otherwise stop every reconcile, and with
 * it the app's deletion.
 */
export function appStatusSchema(
  fields: Record<string, JsonSchema> = {},
): Record<string, JsonSchema> {
  const text = { type: "string" };
  const name = { type: "string", minLength: 1 };
  return {
    version: text,
    observedGeneration: { type: "integer", format: "int64" },
    conditions: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "status"],
        properties: {
          type: name,
          status: { type: "string", enum: ["True", "False", "Unknown"] },
          reason: text,
          message: text,
          lastTransitionTime: { type: "string", format: "date-time" },
          observedGeneration: { type: "integer", format: "int64" },
        },
      },
    },
    inventory: {
      type: "array",
      items: {
        type: "object",
        required: ["apiVersion", "kind", "name"],
        properties: { apiVersion: name, kind: name, name, namespace: text },
      },
    },
    ...fields,
  };
}

/**
 * The CRD that serves a definition's kind in `apps.cozystack.io/v1alpha1`;
 * `statusFields` are the extra status fields its module reports.
 */
export function crdFor(
  def: ApplicationDefinition,
  statusFields: Record<string, JsonSchema> = {},
): KubeObject {
  const app = def.spec.application;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: {
      name: `${app.plural}.${APPS_GROUP}`,
      labels: { [LABEL_DEFINITION]: def.metadata.name! },
    },
    spec: {
      group: APPS_GROUP,
      scope: "Namespaced",
      names: {
        kind: app.kind,
        listKind: `${app.kind}List`,
        plural: app.plural,
        singular: app.singular,
        categories: ["cozy"],
      },
      versions: [
        {
          name: APPS_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            {
              name: "Ready",
              type: "string",
              jsonPath: '.status.conditions[?(@.type=="Ready")].status',
            },
            { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
            { name: "Version", type: "string", jsonPath: ".status.version" },
          ],
          schema: {
            openAPIV3Schema: rootSchema(
              { appVersion: { type: "string" }, spec: specSchema(def) },
              { status: appStatusSchema(statusFields) },
            ),
          },
        },
      ],
    },
  };
}
