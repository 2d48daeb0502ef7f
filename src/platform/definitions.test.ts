/**
 * The checked-in ApplicationDefinitions (`config/apps/`): Cozystack's kinds,
 * plurals and release prefixes, the tenant modules, schemas a CRD can serve
 * (structural, defaults that survive pruning, dashboard keys that exist), and
 * the defaults each served CRD carries.
 */
import assert from "node:assert/strict";
import { dirname, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../api/index.js";
import {
  type ApplicationDefinition,
  appSchema,
  crdFor,
  definitionProblem,
  isModule,
  type JsonSchema,
  loadDefinitions,
} from "./definitions.js";
import { LABEL_TENANT_MODULE } from "./engine/module.js";
import { definitionsDir } from "./index.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const definitions = loadDefinitions(definitionsDir(repoRoot));

/** Cozystack's names (packages/system/<name>-rd/cozyrds/<name>.yaml). */
const EXPECTED: Record<string, { name: string; singular: string; plural: string; prefix: string }> =
  {
    Tenant: { name: "tenant", singular: "tenant", plural: "tenants", prefix: "tenant-" },
    Kubernetes: {
      name: "kubernetes",
      singular: "kubernetes",
      plural: "kuberneteses",
      prefix: "kubernetes-",
    },
    KubernetesNodes: {
      name: "kubernetes-nodes",
      singular: "kubernetesnodes",
      plural: "kubernetesnodeses",
      prefix: "kubernetes-nodes-",
    },
    Postgres: { name: "postgres", singular: "postgres", plural: "postgreses", prefix: "postgres-" },
    Redis: { name: "redis", singular: "redis", plural: "redises", prefix: "redis-" },
    HTTPCache: {
      name: "http-cache",
      singular: "httpcache",
      plural: "httpcaches",
      prefix: "http-cache-",
    },
    TCPBalancer: {
      name: "tcp-balancer",
      singular: "tcpbalancer",
      plural: "tcpbalancers",
      prefix: "tcp-balancer-",
    },
    Etcd: { name: "etcd", singular: "etcd", plural: "etcds", prefix: "" },
    Monitoring: { name: "monitoring", singular: "monitoring", plural: "monitorings", prefix: "" },
    Ingress: { name: "ingress", singular: "ingress", plural: "ingresses", prefix: "" },
    SeaweedFS: { name: "seaweedfs", singular: "seaweedfs", plural: "seaweedfses", prefix: "" },
    Info: { name: "info", singular: "info", plural: "infos", prefix: "" },
  };

const MODULES = ["Etcd", "Info", "Ingress", "Monitoring", "SeaweedFS"];

/** Keys a CRD's JSONSchemaProps may carry (anything else would not survive a real apiserver). */
const SCHEMA_KEYS = new Set([
  ...["title", "description", "type", "default", "enum", "pattern", "minimum", "maximum"],
  ...["minLength", "maxLength", "minItems", "maxItems", "required", "properties"],
  ...["additionalProperties", "items", "anyOf", "x-kubernetes-int-or-string"],
  ...["x-kubernetes-preserve-unknown-fields", "x-kubernetes-validations"],
]);

const INT_OR_STRING_ANY_OF = [{ type: "integer" }, { type: "string" }];

/** Why a schema node is not structural, at its dotted path. */
function structuralProblems(s: JsonSchema, path: string): string[] {
  const out = Object.keys(s)
    .filter((k) => !SCHEMA_KEYS.has(k))
    .map((k) => `${path}: key ${k} is not allowed`);
  if (s["x-kubernetes-int-or-string"] === true) {
    if (s.type !== undefined || !isDeepStrictEqual(s.anyOf, INT_OR_STRING_ANY_OF))
      out.push(
        `${path}: int-or-string takes exactly anyOf [integer, string] and no type; a pattern goes on the node (no anyOf branch is validated)`,
      );
    return out;
  }
  if (s.anyOf !== undefined) out.push(`${path}: anyOf outside int-or-string`);
  if (typeof s.type !== "string") return [...out, `${path}: no type`];
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const extra = s.additionalProperties as JsonSchema | undefined;
  if (s.type === "object") {
    const open = s["x-kubernetes-preserve-unknown-fields"] === true;
    if (!s.properties && !extra && !open) out.push(`${path}: object without properties`);
    if (extra !== undefined && typeof extra !== "object")
      out.push(`${path}: additionalProperties must be a schema`);
  }
  if (s.type === "array" && typeof s.items !== "object") out.push(`${path}: array without items`);
  for (const [k, sub] of Object.entries(props))
    out.push(...structuralProblems(sub, `${path}.${k}`));
  if (typeof extra === "object") out.push(...structuralProblems(extra, `${path}[*]`));
  if (typeof s.items === "object")
    out.push(...structuralProblems(s.items as JsonSchema, `${path}[]`));
  return out;
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (Number.isInteger(v)) return "integer";
  return v === null ? "null" : typeof v;
}

/** Why `value` would fail or lose fields under `s` (types, enums, pruning), recursively. */
function valueProblems(value: unknown, s: JsonSchema, path: string): string[] {
  const t = jsonType(value);
  if (s["x-kubernetes-int-or-string"] === true)
    return t === "integer" || t === "string" ? [] : [`${path}: ${t} is not int-or-string`];
  if (s.type !== t && !(s.type === "number" && t === "integer"))
    return [`${path}: ${t} is not ${s.type}`];
  if (Array.isArray(s.enum) && !s.enum.includes(value)) return [`${path}: ${value} not in enum`];
  if (Array.isArray(value))
    return value.flatMap((v, i) => valueProblems(v, s.items as JsonSchema, `${path}[${i}]`));
  if (t !== "object" || s["x-kubernetes-preserve-unknown-fields"] === true) return [];
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
    const sub = props[k] ?? (s.additionalProperties as JsonSchema | undefined);
    return sub ? valueProblems(v, sub, `${path}.${k}`) : [`${path}.${k}: pruned`];
  });
}

/** Every `default` in a schema, checked against its own node. */
function defaultProblems(s: JsonSchema, path: string): string[] {
  const own = s.default === undefined ? [] : valueProblems(s.default, s, `${path} default`);
  const props = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>);
  const extra = typeof s.additionalProperties === "object" ? [["*", s.additionalProperties]] : [];
  const items = typeof s.items === "object" ? [["[]", s.items]] : [];
  return [
    ...own,
    ...[...props, ...extra, ...items].flatMap(([k, sub]) =>
      defaultProblems(sub as JsonSchema, `${path}.${k as string}`),
    ),
  ];
}

/** The schema node at a path of keys (properties, or a map's values), or undefined. */
function nodeAt(schema: JsonSchema, path: string[]): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const key of path) {
    const map: unknown = node?.additionalProperties;
    node =
      (node?.properties as Record<string, JsonSchema> | undefined)?.[key] ??
      (typeof map === "object" ? (map as JsonSchema) : undefined);
  }
  return node;
}

function servedSpec(crd: KubeObject): JsonSchema {
  const versions = (crd.spec as { versions: { schema: { openAPIV3Schema: JsonSchema } }[] })
    .versions;
  return nodeAt(versions[0]!.schema.openAPIV3Schema, ["spec"])!;
}

function def(kind: string): ApplicationDefinition {
  const found = definitions.get(kind);
  assert.ok(found, `no definition for ${kind}`);
  return found;
}

describe("checked-in ApplicationDefinitions", () => {
  it("are exactly Cozystack's kinds, each with its name, plurals and release prefix", () => {
    assert.deepEqual([...definitions.keys()].sort(), Object.keys(EXPECTED).sort());
    for (const [kind, want] of Object.entries(EXPECTED)) {
      const d = def(kind);
      assert.equal(definitionProblem(d), undefined, kind);
      assert.equal(d.metadata.name, want.name, kind);
      const app = d.spec.application;
      assert.deepEqual(
        { singular: app.singular, plural: app.plural, prefix: d.spec.release.prefix },
        { singular: want.singular, plural: want.plural, prefix: want.prefix },
        kind,
      );
    }
  });

  it("mark exactly Etcd, Monitoring, Ingress, SeaweedFS and Info as tenant modules", () => {
    const modules = [...definitions.values()].filter(isModule);
    assert.deepEqual(modules.map((d) => d.spec.application.kind).sort(), MODULES);
    for (const d of definitions.values()) {
      const label = d.spec.release.labels?.[LABEL_TENANT_MODULE];
      assert.equal(label, isModule(d) ? "true" : undefined, d.spec.application.kind);
    }
  });

  it("have structural schemas whose defaults survive validation and pruning", () => {
    const problems = [...definitions.values()].flatMap((d) => {
      const schema = appSchema(d);
      const kind = d.spec.application.kind;
      return [...structuralProblems(schema, kind), ...defaultProblems(schema, kind)];
    });
    assert.deepEqual(problems, []);
  });

  it("order only dashboard keys that exist", () => {
    for (const d of definitions.values()) {
      const schema = appSchema(d);
      const keys = d.spec.dashboard?.keysOrder ?? [];
      assert.ok(keys.length > 0, `${d.spec.application.kind}: no keysOrder`);
      for (const path of keys.filter((p) => p[0] === "spec").map((p) => p.slice(1)))
        assert.ok(
          nodeAt(schema, path),
          `${d.spec.application.kind}: keysOrder spec.${path.join(".")}`,
        );
    }
  });
});

describe("crdFor", () => {
  /** Cozystack's defaults (values.yaml of each chart), by spec path. */
  const DEFAULTS: [string, string, unknown][] = [
    ["Postgres", "replicas", 2],
    ["Postgres", "size", "10Gi"],
    ["Postgres", "version", "v18"],
    ["Postgres", "resourcesPreset", "t1.micro"],
    ["Postgres", "postgresql.parameters", { max_connections: "100" }],
    ["Etcd", "replicas", 3],
    ["Etcd", "size", "4Gi"],
    ["Etcd", "resources.cpu", "1000m"],
    ["Etcd", "resources.memory", "512Mi"],
    ["Redis", "replicas", 2],
    ["Redis", "size", "1Gi"],
    ["Redis", "authEnabled", true],
    ["Kubernetes", "version", "v1.35"],
    ["Kubernetes", "storageClass", "replicated"],
    ["Kubernetes", "controlPlane.replicas", 2],
    ["KubernetesNodes", "instanceType", "u1.medium"],
    ["KubernetesNodes", "diskSize", "20Gi"],
    ["KubernetesNodes", "maxReplicas", 10],
    ["HTTPCache", "size", "10Gi"],
    ["HTTPCache", "haproxy.replicas", 2],
    ["HTTPCache", "nginx.resourcesPreset", "t1.nano"],
    ["TCPBalancer", "replicas", 2],
    ["TCPBalancer", "httpAndHttps.mode", "tcp"],
    ["TCPBalancer", "httpAndHttps.targetPorts.https", 443],
    ["Ingress", "replicas", 2],
    ["SeaweedFS", "topology", "Simple"],
    ["SeaweedFS", "replicationFactor", 2],
    ["Monitoring", "vmagent.externalLabels", { cluster: "cozystack" }],
    ["Tenant", "etcd", false],
  ];

  it("serves each kind in apps.cozystack.io with the definition's defaults", () => {
    for (const [kind, path, want] of DEFAULTS) {
      const crd = crdFor(def(kind));
      assert.equal(crd.metadata.name, `${def(kind).spec.application.plural}.apps.cozystack.io`);
      const node = nodeAt(servedSpec(crd), path.split("."));
      assert.deepEqual(node?.default, want, `${kind} spec.${path}`);
    }
  });

  it("serves Monitoring's metrics storages with Cozystack's retention defaults", () => {
    const storages = nodeAt(servedSpec(crdFor(def("Monitoring"))), ["metricsStorages"])?.default;
    const summary = (storages as { name: string; retentionPeriod: string }[]).map(
      (s) => `${s.name}=${s.retentionPeriod}`,
    );
    assert.deepEqual(summary, ["shortterm=3d", "longterm=14d"]);
  });

  it("serves a closed status schema: the engine's fields, typed, and the module's own", () => {
    const crd = crdFor(def("Tenant"), { namespace: { type: "string" } });
    const versions = (crd.spec as { versions: { schema: { openAPIV3Schema: JsonSchema } }[] })
      .versions;
    const status = versions[0]!.schema.openAPIV3Schema;
    const statusSchema = (status.properties as Record<string, JsonSchema>).status!;
    assert.equal(statusSchema["x-kubernetes-preserve-unknown-fields"], undefined);
    const fields = statusSchema.properties as Record<string, JsonSchema>;
    assert.deepEqual(Object.keys(fields).sort(), [
      "conditions",
      "inventory",
      "namespace",
      "observedGeneration",
      "version",
    ]);
    const entry = (fields.inventory!.items ?? {}) as JsonSchema;
    assert.deepEqual(entry.required, ["apiVersion", "kind", "name"]);
    const condition = (fields.conditions!.items ?? {}) as JsonSchema;
    assert.deepEqual(condition.required, ["type", "status"]);
  });
});
