/**
 * The inventory of an app: references to the children it applied, kept in the
 * app's status. The engine writes the union of the old and new inventory before
 * it applies anything, so a crash between apply and status write cannot leave a
 * child no one remembers.
 */
import type { KubeObject } from "../../api/index.js";
import type { InventoryEntry } from "./module.js";

/**
 * The well-formed entries of a stored inventory. The status schema refuses
 * anything else, but a status stored before it (or by a bug) may hold a
 * non-list or entries without string fields; those are left out rather than
 * failing every reconcile, which would keep the app from ever being deleted.
 */
export function readInventory(inventory: unknown): InventoryEntry[] {
  if (!Array.isArray(inventory)) return [];
  const str = (v: unknown) => typeof v === "string" && v !== "";
  return inventory.flatMap((e: unknown): InventoryEntry[] => {
    if (typeof e !== "object" || e === null) return [];
    const { apiVersion, kind, name, namespace } = e as Record<string, unknown>;
    if (!str(apiVersion) || !str(kind) || !str(name)) return [];
    if (namespace !== undefined && typeof namespace !== "string") return [];
    return [
      {
        apiVersion: apiVersion as string,
        kind: kind as string,
        name: name as string,
        ...(namespace ? { namespace } : {}),
      },
    ];
  });
}

export function entryOf(obj: KubeObject): InventoryEntry {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name!,
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
  };
}

export function entryKey(e: InventoryEntry): string {
  return `${e.apiVersion}|${e.kind}|${e.namespace ?? ""}|${e.name}`;
}

export function describeEntry(e: InventoryEntry): string {
  return e.namespace ? `${e.kind} ${e.namespace}/${e.name}` : `${e.kind} ${e.name}`;
}

/** `a` followed by what `b` adds, without duplicates. */
export function unionEntries(a: InventoryEntry[], b: InventoryEntry[]): InventoryEntry[] {
  const seen = new Set(a.map(entryKey));
  return [...a, ...b.filter((e) => !seen.has(entryKey(e)))];
}

/** The entries of `a` that `b` does not hold. */
export function subtractEntries(a: InventoryEntry[], b: InventoryEntry[]): InventoryEntry[] {
  const keep = new Set(b.map(entryKey));
  return a.filter((e) => !keep.has(entryKey(e)));
}

export function sameEntries(a: InventoryEntry[], b: InventoryEntry[]): boolean {
  return a.length === b.length && subtractEntries(a, b).length === 0;
}
