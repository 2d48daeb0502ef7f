/**
 * Runs the StatefulSet controller on a Manager: a StatefulSet wakes itself, and
 * its pods and ControllerRevisions (owner-based) wake it; the reconciler reads
 * fresh state from the API.
 */
import { type Client, controllerRecorder } from "../../client/index.js";
import type { Manager } from "../../runtime/index.js";
import { StatefulSetReconciler } from "./stateful-set-controller.js";

export function registerStatefulSetController(
  manager: Manager,
  client: Client,
  opts: { log?(msg: string, err?: unknown): void; workers?: number } = {},
): void {
  const now = () => manager.clock.now();
  const recorder = controllerRecorder(
    client,
    "statefulset-controller",
    opts.log ?? (() => {}),
    now,
  );
  manager
    .controller("statefulset")
    .workers(opts.workers ?? 2)
    .for({ apiVersion: "apps/v1", kind: "StatefulSet" })
    .owns({ apiVersion: "v1", kind: "Pod" })
    .owns({ apiVersion: "apps/v1", kind: "ControllerRevision" })
    .complete(new StatefulSetReconciler(client, recorder, { now }));
}
