/**
 * `meta.k8s.io/v1` Table rendering: NAME, the type's columns, AGE, with rows that
 * carry PartialObjectMetadata (or the whole object) as kubectl expects.
 */
import type { KubeObject } from "../../api/index.js";
import type { ResourceType, TableColumn } from "./resource-type.js";

/** kube's `duration.HumanDuration`: 45s, 5m30s, 3h, 2d5h, 400d, 3y100d. */
export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (h < 24 * 8) return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
  if (h < 24 * 365 * 2) return `${d}d`;
  const y = Math.floor(d / 365);
  if (h < 24 * 365 * 8) return d % 365 === 0 ? `${y}y` : `${y}y${d % 365}d`;
  return `${y}y`;
}

export function age(timestamp: string | undefined, now = Date.now()): string {
  if (!timestamp) return "<unknown>";
  return humanDuration(now - Date.parse(timestamp));
}

export const ageColumn: TableColumn = {
  name: "Age",
  type: "string",
  format: "",
  description:
    "CreationTimestamp is a timestamp representing the server time when this object was created.",
  cell: (o) => age(o.metadata.creationTimestamp),
};

function columnsOf(t: ResourceType): TableColumn[] {
  const name: TableColumn = {
    name: "Name",
    type: "string",
    format: "name",
    description: "Name must be unique within a namespace.",
    cell: (o) => o.metadata.name ?? "",
  };
  if (t.ownColumns) return t.columns;
  const hasAge = t.columns.some((c) => c.name === "Age");
  return [name, ...t.columns, ...(hasAge ? [] : [ageColumn])];
}

function partialMetadata(obj: KubeObject): KubeObject {
  const { managedFields: _mf, ...metadata } = obj.metadata;
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata };
}

export interface TableOptions {
  includeObject: "None" | "Metadata" | "Object";
  /** Watch events after the first carry no column definitions. */
  withHeaders: boolean;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export function toTable(
  t: ResourceType,
  objects: KubeObject[],
  opts: TableOptions,
): Record<string, unknown> {
  const columns = columnsOf(t);
  const now = Date.now();
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: {
      ...(opts.resourceVersion ? { resourceVersion: opts.resourceVersion } : {}),
      ...(opts.continue ? { continue: opts.continue } : {}),
      ...(opts.remainingItemCount !== undefined
        ? { remainingItemCount: opts.remainingItemCount }
        : {}),
    },
    columnDefinitions: opts.withHeaders
      ? columns.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format ?? "",
          description: c.description ?? "",
          priority: c.priority ?? 0,
        }))
      : [],
    rows: objects.map((o) => ({
      cells: columns.map((c) =>
        c === ageColumn ? age(o.metadata.creationTimestamp, now) : (c.cell(o) ?? null),
      ),
      ...(opts.includeObject === "None"
        ? {}
        : { object: opts.includeObject === "Object" ? o : partialMetadata(o) }),
    })),
  };
}
