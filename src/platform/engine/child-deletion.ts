/**
 * Deleting one inventory entry of an app, for prune and for uninstall: only an
 * object the engine applied for this app (`ownership.ts`), only the object just
 * checked (a uid precondition), and answering whether anything of it is left.
 */
import { hasCode } from "../../api/index.js";
import { errorText, isStatus, type Reader } from "../../client/index.js";
import type { EngineContext } from "./engine-context.js";
import { describeEntry } from "./inventory.js";
import type { App, ChildScope, InventoryEntry } from "./module.js";
import { entryProblem, ignoredMessage, liveProblem } from "./ownership.js";
import { StepError } from "./step-error.js";

/**
 * What became of an entry: `gone`, `deleting` (still present: finalizers hold
 * it, it is terminating), or `ignored` (not the engine's; the caller drops it).
 */
export type Deletion = "gone" | "deleting" | "ignored";

/**
 * Deletes a child the engine applied for `app` (of kind `kind`), if it still
 * exists. An entry the engine cannot tell as its own is left alone and
 * reported with a Warning. `reader` reads the child (the pass's cache-first
 * reader: a cached copy decides, a miss is read live, so an entry is never
 * taken as gone because the informer has not seen it yet).
 */
export async function deleteChild(
  engine: EngineContext,
  reader: Reader,
  app: App,
  kind: string,
  scope: ChildScope,
  e: InventoryEntry,
): Promise<Deletion> {
  const client = engine.client;
  const ignore = (problem: string): Deletion => {
    engine.events.event(app, "Warning", "InventoryEntryIgnored", ignoredMessage(e, problem));
    return "ignored";
  };
  const before = entryProblem(scope, e);
  if (before) return ignore(before);
  try {
    const ref = { apiVersion: e.apiVersion, kind: e.kind, name: e.name, namespace: e.namespace };
    const obj = await reader.get(ref);
    const problem = liveProblem(app, kind, scope, obj);
    if (problem) return ignore(problem);
    // A stale cached copy being deleted waits for the child's delete event, which wakes the app.
    if (obj.metadata.deletionTimestamp) return "deleting";
    // The uid precondition: what is deleted is the object just checked, not a successor
    // (a stale copy of one that is gone meanwhile answers 404: gone).
    const left = await client.delete(ref, {
      propagationPolicy: "Background",
      ...(obj.metadata.uid ? { preconditions: { uid: obj.metadata.uid } } : {}),
    });
    // A Status means it was removed at once; an object means finalizers keep it.
    return isStatus(left) ? "gone" : "deleting";
  } catch (err) {
    // Gone, or its kind is no longer served (CRD removed): nothing of it is left.
    if (hasCode(err, 404)) return "gone";
    throw new StepError("DeleteFailed", `cannot delete ${describeEntry(e)}: ${errorText(err)}`, {
      cause: err,
    });
  }
}
