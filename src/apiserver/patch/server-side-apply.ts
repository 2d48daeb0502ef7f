/**
 * Server-side apply (`application/apply-patch+yaml`; structured-merge-diff
 * `Updater.Apply` behind apimachinery's field manager): merges the applied
 * configuration into the live object, removes what this manager applied before
 * but no longer applies (unless another manager owns it), fails with a 409 on
 * fields another manager owns and this apply changes (unless forced, which takes
 * them over), and records the manager's `Apply` entry in `metadata.managedFields`.
 */

import type { Schema } from "../../api/index.js";
import { BadRequestError, InternalError, isObject, type KubeObject } from "../../api/index.js";
import { recordUpdate, transferOwnership } from "./field-manager.js";
import type { FieldSet } from "./field-set.js";
import { jsonEqual } from "./json-value.js";
import { decodeManagedFields, encodeManagedFields, type Managers, managerId } from "./managers.js";
import { prune } from "./prune.js";
import {
  TypedValueError,
  toFieldSet,
  withoutManagedFields,
  withoutServerOwned,
} from "./to-field-set.js";
import { mergeTyped } from "./typed-merge.js";

export interface ServerSideApplyArgs {
  /** The stored object; undefined when the apply creates it. */
  live: KubeObject | undefined;
  /** The applied configuration (without managedFields). */
  applied: KubeObject;
  /** `?fieldManager=`, required for apply. */
  manager: string;
  force: boolean;
  schema: Schema | undefined;
  /** The apiVersion served, recorded in the entry; the configuration must use it. */
  apiVersion: string;
  now: string;
}

export function serverSideApply(args: ServerSideApplyArgs): KubeObject {
  const { live, applied, schema, apiVersion } = args;
  checkConfiguration(live, applied, apiVersion);
  let configFields: FieldSet;
  try {
    configFields = toFieldSet(applied, schema, true);
  } catch (e) {
    if (!(e instanceof TypedValueError)) throw e;
    throw new BadRequestError(
      `failed to create typed patch object (${describe(applied)}): ${e.message}`,
      { cause: e },
    );
  }
  const base = live
    ? withoutManagedFields(structuredClone(live))
    : ({ apiVersion: applied.apiVersion, kind: applied.kind } as KubeObject);
  let managers: Managers;
  try {
    managers = decodeManagedFields(live?.metadata?.managedFields);
  } catch (e) {
    throw new InternalError(`failed to decode managed fields: ${(e as Error).message}`, {
      cause: e,
    });
  }
  if (managers.size === 0) {
    // Fields set before anyone applied belong to a `before-first-apply` updater.
    const empty = { apiVersion: base.apiVersion, kind: base.kind } as KubeObject;
    const writer = { manager: "before-first-apply", operation: "Update" as const, apiVersion };
    recordUpdate(empty, base, schema, managers, writer, managerId(writer), args.now);
  }

  const applier = { manager: args.manager, operation: "Apply" as const, apiVersion };
  const id = managerId(applier);
  const previous = managers.get(id);
  const merged = mergeTyped(base, structuredClone(applied), schema) as KubeObject;
  managers.set(id, {
    ...applier,
    ...(previous?.time ? { time: previous.time } : {}),
    fields: configFields,
  });
  const next = prune(merged, managers, previous?.fields, schema) as KubeObject;
  transferOwnership(base, next, schema, managers, id, args.force);

  const own = withoutServerOwned(configFields);
  const changed = !jsonEqual(base, next);
  // The entry's time moves only when the apply changed the object (`managedFieldsUpdater`).
  const time = changed ? args.now : previous?.time;
  if (own.isEmpty()) managers.delete(id);
  else managers.set(id, { ...applier, ...(time ? { time } : {}), fields: own });
  const result = changed ? next : base;
  const entries = encodeManagedFields(managers);
  if (!isObject(result.metadata)) result.metadata = {};
  if (entries.length > 0) result.metadata.managedFields = entries;
  else delete result.metadata.managedFields;
  return result;
}

function checkConfiguration(
  live: KubeObject | undefined,
  applied: KubeObject,
  apiVersion: string,
): void {
  if (live && applied.kind !== live.kind) {
    throw new BadRequestError(`invalid object type: ${describeKind(applied)}`);
  }
  if (applied.apiVersion !== apiVersion) {
    throw new BadRequestError(
      `Incorrect version specified in apply patch. Specified patch version: ${String(applied.apiVersion)}, expected: ${apiVersion}`,
    );
  }
  if (isObject(applied.metadata) && applied.metadata.managedFields !== undefined) {
    throw new BadRequestError("metadata.managedFields must be nil");
  }
}

/** Go's `GroupVersionKind.String()`: `apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap`. */
function describeKind(obj: KubeObject): string {
  const apiVersion = String(obj.apiVersion);
  const gv = apiVersion.includes("/") ? apiVersion : `/${apiVersion}`;
  return `${gv}, Kind=${String(obj.kind)}`;
}

/** kube's `objectGVKNN`: `namespace/name; apps/v1, Kind=Deployment`. */
function describe(obj: KubeObject): string {
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  return `${meta.namespace ?? ""}/${meta.name ?? ""}; ${describeKind(obj)}`;
}
