/**
 * Managed-fields bookkeeping for writes that are not applies — create, update,
 * patch (apimachinery `FieldManager.Update`): the writer's `Update` entry gains the
 * fields the write added or changed, other managers lose them, and every manager
 * loses the fields the write removed. Like kube, an existing object that has no
 * managedFields is not tracked, and a request may reset them with `[]` or `[{}]`.
 */
import type { Schema } from "../../api/index.js";
import { isObject, type KubeObject } from "../../api/index.js";
import { recordUpdate } from "./field-manager.js";
import {
  capUpdateManagers,
  encodeManagedFields,
  type Manager,
  type Managers,
  managerId,
  tryDecodeManagedFields,
} from "./managers.js";
import { withoutManagedFields } from "./to-field-set.js";

export interface UpdateManagedFieldsArgs {
  /** The stored object; undefined on create. */
  old: KubeObject | undefined;
  /** The object about to be stored. */
  updated: KubeObject;
  /** `?fieldManager=` or the one derived from the user agent; empty means `unknown`. */
  manager: string;
  operation: "Update";
  schema: Schema | undefined;
  /** The apiVersion the request used. */
  apiVersion: string;
  now: string;
  /** Set for writes to a subresource (`status`, `scale`). */
  subresource?: string;
}

/**
 * The object to store: `updated` with the managedFields of this write. `updated`
 * is not modified; the result shares all but its top level and metadata with it.
 */
export function updateManagedFields(args: UpdateManagedFieldsArgs): KubeObject {
  const { old, updated } = args;
  const managers = startingManagers(args);
  const next = withOwnMetadata(updated);
  // `skipNonApplied`: an object stored without managedFields stays untracked.
  if (managers.size === 0 && old?.metadata?.uid) return next;
  const writer: Omit<Manager, "fields" | "time"> = {
    manager: args.manager || "unknown",
    operation: args.operation,
    apiVersion: args.apiVersion,
  };
  if (args.subresource) writer.subresource = args.subresource;
  const before = old
    ? withoutManagedFields(old)
    : ({ apiVersion: updated.apiVersion, kind: updated.kind } as KubeObject);
  recordUpdate(before, next, args.schema, managers, writer, managerId(writer), args.now);
  capUpdateManagers(managers);
  const entries = encodeManagedFields(managers);
  if (entries.length > 0) {
    if (!isObject(next.metadata)) next.metadata = {};
    next.metadata.managedFields = entries;
  }
  return next;
}

/**
 * A shallow copy of `obj` with a copy of its metadata, without managedFields. Only
 * the metadata is written to, so `obj` is left as it was while the values below
 * (spec, data, status, ...) are shared with it, not copied: the write path hands
 * over an object it built for this write and stores what comes back.
 */
function withOwnMetadata(obj: KubeObject): KubeObject {
  if (!isObject(obj.metadata)) return { ...obj };
  const { managedFields: _managed, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** `decodeLiveOrNew`: the request's managedFields if it carries valid ones, else the stored ones. */
function startingManagers(args: UpdateManagedFieldsArgs): Managers {
  const fromOld = () => tryDecodeManagedFields(args.old?.metadata?.managedFields) ?? new Map();
  if (args.subresource) return fromOld();
  const requested = isObject(args.updated.metadata)
    ? args.updated.metadata.managedFields
    : undefined;
  if (isReset(requested)) return new Map();
  const fromRequest = tryDecodeManagedFields(requested);
  return fromRequest && fromRequest.size > 0 ? fromRequest : fromOld();
}

/** `[]` or a single empty entry asks to drop all managedFields. */
function isReset(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  const [only] = entries;
  return (
    entries.length === 1 &&
    isObject(only) &&
    Object.values(only).every((v) => v === undefined || v === "" || v === null)
  );
}
