/**
 * `metadata.managedFields` as a table of managers (apimachinery
 * `managedfields/internal`): each entry keyed by its identity — manager name,
 * operation, subresource, and for updaters the apiVersion — holding a field set.
 * Decoding, encoding in kube's order (appliers first, then by time, manager,
 * apiVersion, subresource), and capping updaters at ten.
 */
import { isObject, type ManagedFieldsEntry } from "../../api/index.js";
import { FieldSet } from "./field-set.js";

export interface Manager {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion: string;
  subresource?: string;
  time?: string;
  fields: FieldSet;
}

export type Managers = Map<string, Manager>;

/** kube's `BuildManagerIdentifier`: appliers are one manager whatever apiVersion they use. */
export function managerId(m: Omit<Manager, "fields" | "time">): string {
  const id: Record<string, string> = { manager: m.manager, operation: m.operation };
  if (m.operation === "Update") id.apiVersion = m.apiVersion;
  if (m.subresource) id.subresource = m.subresource;
  return JSON.stringify(id);
}

/** Reads managedFields; throws on an entry kube would refuse to decode. */
export function decodeManagedFields(entries: unknown): Managers {
  const managers: Managers = new Map();
  if (entries === undefined || entries === null) return managers;
  if (!Array.isArray(entries)) throw new Error("managedFields must be a list");
  for (const [i, entry] of entries.entries()) {
    if (!isObject(entry)) throw new Error(`managed fields entry ${i} is not an object`);
    const { manager, operation, apiVersion, fieldsType, fieldsV1, time, subresource } = entry;
    if (operation !== "Apply" && operation !== "Update") {
      throw new Error("operation must be `Apply` or `Update`");
    }
    if (typeof apiVersion !== "string" || apiVersion === "") {
      throw new Error("apiVersion must not be empty");
    }
    if (fieldsType !== "FieldsV1") {
      throw new Error(
        fieldsType === undefined || fieldsType === ""
          ? `missing fieldsType in managed fields entry ${i}`
          : `invalid fieldsType ${JSON.stringify(fieldsType)} in managed fields entry ${i}`,
      );
    }
    const m: Manager = {
      manager: typeof manager === "string" ? manager : "",
      operation,
      apiVersion,
      ...(typeof subresource === "string" && subresource ? { subresource } : {}),
      ...(typeof time === "string" ? { time } : {}),
      fields: FieldSet.fromFieldsV1(
        isObject(fieldsV1) ? (fieldsV1 as ManagedFieldsEntry["fieldsV1"]) : {},
      ),
    };
    managers.set(managerId(m), m);
  }
  return managers;
}

/** decodeManagedFields, or undefined where kube falls back (`emptyManagedFieldsOnErr`). */
export function tryDecodeManagedFields(entries: unknown): Managers | undefined {
  try {
    return decodeManagedFields(entries);
  } catch {
    return undefined;
  }
}

const seconds = (time: string | undefined): number => {
  const ms = time ? Date.parse(time) : Number.NaN;
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
};

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** One manager as a managedFields entry. */
export function encodeManager(m: Manager): ManagedFieldsEntry {
  const entry: Partial<ManagedFieldsEntry> = {
    manager: m.manager,
    operation: m.operation,
    apiVersion: m.apiVersion,
  };
  if (m.time !== undefined) entry.time = m.time;
  entry.fieldsType = "FieldsV1";
  entry.fieldsV1 = m.fields.toFieldsV1();
  if (m.subresource) entry.subresource = m.subresource;
  return entry as ManagedFieldsEntry;
}

export function encodeManagedFields(managers: Managers): ManagedFieldsEntry[] {
  const entries = [...managers.values()].map(encodeManager);
  return entries.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource ?? "", q.subresource ?? ""),
  );
}

export const MAX_UPDATE_MANAGERS = 10;

/**
 * `capManagersManager`: past ten updaters, the oldest are folded into one
 * `ancient-changes` updater per apiVersion.
 */
export function capUpdateManagers(managers: Managers, max = MAX_UPDATE_MANAGERS): void {
  if (managers.size <= max) return;
  const updaters = [...managers.entries()].filter(([, m]) => m.operation === "Update");
  if (updaters.length <= max) return;
  updaters.sort(([ia, a], [ib, b]) => seconds(a.time) - seconds(b.time) || cmp(ia, ib));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (const [id, m] of updaters) {
    if (length <= max) break;
    const bucketId = managerId({
      manager: "ancient-changes",
      operation: "Update",
      apiVersion: m.apiVersion,
    });
    const first = firstByVersion.get(m.apiVersion);
    if (first === undefined) {
      firstByVersion.set(m.apiVersion, id);
      continue;
    }
    let bucket = managers.get(bucketId);
    if (!bucket) {
      const firstManager = managers.get(first);
      managers.delete(first);
      bucket = {
        manager: "ancient-changes",
        operation: "Update",
        apiVersion: m.apiVersion,
        fields: firstManager?.fields ?? FieldSet.empty(),
      };
    }
    managers.set(bucketId, {
      ...bucket,
      fields: bucket.fields.union(m.fields),
      ...(m.time !== undefined ? { time: m.time } : {}),
    });
    managers.delete(id);
    length--;
  }
}
