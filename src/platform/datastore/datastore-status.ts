/**
 * A DataStore's status from one pass, as a pure function: `usedBy` (the
 * control planes on it, `namespace/name`, sorted), `ready` and the `Ready`
 * condition (reachable and authenticated, or why not), and while it is being
 * deleted the `DeletionAllowed` condition (False, reason `InUse`, naming the
 * users its finalizer waits for).
 */
import { isDeepStrictEqual } from "node:util";
import {
  type Condition,
  removeCondition,
  sameConditions,
  setCondition,
} from "../../runtime/index.js";
import type { NotReady } from "./content-refs.js";
import type { DataStore } from "./crd.js";

export const READY = "Ready";
export const DELETION_ALLOWED = "DeletionAllowed";

export type Health = { ready: true; message: string } | ({ ready: false } & NotReady);

export interface DataStoreStatus {
  usedBy: string[];
  ready: boolean;
  observedGeneration: number;
  conditions: Condition[];
}

const MAX_NAMED = 10;

/** "a/x, b/y and 3 more". */
export function nameUsers(users: readonly string[]): string {
  const shown = users.slice(0, MAX_NAMED).join(", ");
  return users.length > MAX_NAMED ? `${shown} and ${users.length - MAX_NAMED} more` : shown;
}

export function dataStoreStatus(
  ds: DataStore,
  usedBy: readonly string[],
  health: Health,
  now = new Date(),
): DataStoreStatus {
  const generation = ds.metadata.generation ?? 0;
  const old = (ds.status?.conditions ?? []) as Condition[];
  let conditions = setCondition(
    old,
    {
      type: READY,
      status: health.ready ? "True" : "False",
      reason: health.ready ? "Authenticated" : health.reason,
      message: health.message,
      observedGeneration: generation,
    },
    now,
  );
  if (ds.metadata.deletionTimestamp) {
    const n = usedBy.length;
    conditions = setCondition(
      conditions,
      n > 0
        ? {
            type: DELETION_ALLOWED,
            status: "False",
            reason: "InUse",
            message: `waiting for ${n} TenantControlPlane${n === 1 ? "" : "s"} to be deleted: ${nameUsers(usedBy)}`,
            observedGeneration: generation,
          }
        : {
            type: DELETION_ALLOWED,
            status: "True",
            reason: "NotInUse",
            message: "no TenantControlPlane uses this DataStore",
            observedGeneration: generation,
          },
      now,
    );
  } else conditions = removeCondition(conditions, DELETION_ALLOWED);
  return { usedBy: [...usedBy], ready: health.ready, observedGeneration: generation, conditions };
}

/** True when `next` says what the stored status says (transition times aside). */
export function sameStatus(ds: DataStore, next: DataStoreStatus): boolean {
  const { conditions: a, ...restOld } = (ds.status ?? {}) as Partial<DataStoreStatus>;
  const { conditions: b, ...restNew } = next;
  return (
    isDeepStrictEqual({ usedBy: [], ...restOld }, restNew) &&
    sameConditions(a as Condition[] | undefined, b)
  );
}
