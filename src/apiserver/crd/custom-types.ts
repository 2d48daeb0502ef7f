/**
 * Turns a CustomResourceDefinition into the ResourceTypes it serves, one per
 * served version: names, scope, subresources (scale served by its handler), the
 * version's schema wrapped in the object envelope, its CEL rules compiled once
 * here and run as the kind's `validate`, additionalPrinterColumns and
 * selectableFields.
 */
import type { KubeObject, Schema } from "../../api/index.js";
import { type ResourceType, STANDARD_VERBS, type TableColumn } from "../resources/resource-type.js";
import { age } from "../resources/table.js";
import { customResourceSchema } from "../schemas/index.js";
import { buildRuleTree, evaluateRules } from "../validation/cel/index.js";
import { evaluateJsonPath } from "./json-path.js";
import { scaleHandler } from "./scale-handler.js";

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: Schema };
  subresources?: {
    status?: object;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
  additionalPrinterColumns?: {
    name: string;
    type: string;
    format?: string;
    description?: string;
    priority?: number;
    jsonPath: string;
  }[];
  selectableFields?: { jsonPath: string }[];
}

export interface CrdSpec {
  group: string;
  names: {
    plural: string;
    singular?: string;
    kind: string;
    listKind?: string;
    shortNames?: string[];
    categories?: string[];
  };
  scope: "Namespaced" | "Cluster";
  versions: CrdVersion[];
}

/** kube's version priority: GA > beta > alpha, higher numbers first, others last by name. */
export function versionPriority(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0, v] as const;
    const stage = m[2] === undefined ? 0 : m[2] === "beta" ? 1 : 2;
    return [stage, -Number(m[1]), -Number(m[3] ?? 0), v] as const;
  };
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  return pa[3] < pb[3] ? -1 : pa[3] > pb[3] ? 1 : 0;
}

function cellValue(type: string, values: unknown[]): unknown {
  if (values.length === 0) return null;
  const v =
    values.length === 1
      ? values[0]
      : values.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x))).join(",");
  if (type === "date" && typeof v === "string") return age(v);
  if (typeof v === "object" && v !== null) return JSON.stringify(v);
  return v;
}

function printerColumns(v: CrdVersion): TableColumn[] {
  return (v.additionalPrinterColumns ?? []).map((c) => ({
    name: c.name,
    type: (c.type === "date" ? "date" : c.type) as TableColumn["type"],
    format: c.format ?? "",
    description: c.description ?? "",
    priority: c.priority ?? 0,
    cell: (o: KubeObject) => cellValue(c.type, evaluateJsonPath(c.jsonPath, o)),
  }));
}

function objectSchema(group: string, v: CrdVersion, kind: string): Schema {
  const given: Schema = v.schema?.openAPIV3Schema ?? {
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
  };
  return customResourceSchema({ group, version: v.name, kind }, given);
}

export function customResourceTypes(crd: KubeObject): ResourceType[] {
  const spec = crd.spec as CrdSpec;
  const names = spec.names;
  const served = spec.versions
    .filter((v) => v.served)
    .sort((a, b) => versionPriority(a.name, b.name));
  return served.map((v) => {
    const columns = printerColumns(v);
    const selectable = v.selectableFields ?? [];
    const schema = objectSchema(spec.group, v, names.kind);
    const rules = buildRuleTree(schema);
    const scale = v.subresources?.scale;
    return {
      group: spec.group,
      version: v.name,
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      namespaced: spec.scope === "Namespaced",
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      verbs: STANDARD_VERBS,
      status: v.subresources?.status !== undefined,
      ...(scale ? { scale, subresourceHandlers: { scale: scaleHandler(scale) } } : {}),
      nameRule: "dns1123-subdomain",
      schema,
      ...(rules
        ? { validate: (obj: KubeObject, old?: KubeObject) => evaluateRules(rules, obj, old) }
        : {}),
      strategicMergePatch: false,
      columns,
      ...(selectable.length
        ? {
            selectableFields: (o: KubeObject) =>
              Object.fromEntries(
                selectable.map((f) => [
                  f.jsonPath.replace(/^\./, ""),
                  String(evaluateJsonPath(f.jsonPath, o)[0] ?? ""),
                ]),
              ),
          }
        : {}),
    } satisfies ResourceType;
  });
}
