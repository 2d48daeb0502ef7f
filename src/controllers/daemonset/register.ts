/**
 * Runs the DaemonSet controller on a Manager: a DaemonSet wakes itself, its
 * pods and ControllerRevisions (owner-based) wake it, and any Node event wakes
 * every DaemonSet (a node joined, left, was relabelled or tainted).
 */
import { type Client, controllerRecorder } from "../../client/index.js";
import { type Manager, requestOf } from "../../runtime/index.js";
import { DaemonSetReconciler } from "./daemon-set-controller.js";

const DAEMON_SET = { apiVersion: "apps/v1", kind: "DaemonSet" };

export function registerDaemonSetController(
  manager: Manager,
  client: Client,
  opts: { log?(msg: string, err?: unknown): void; workers?: number } = {},
): void {
  const now = () => manager.clock.now();
  const recorder = controllerRecorder(client, "daemonset-controller", opts.log ?? (() => {}), now);
  const sets = manager.cache.informer(DAEMON_SET).informer;
  const everySet = () => sets.list().map((ds) => requestOf(ds));
  manager
    .controller("daemonset")
    .workers(opts.workers ?? 2)
    .for(DAEMON_SET)
    .owns({ apiVersion: "v1", kind: "Pod" })
    .owns({ apiVersion: "apps/v1", kind: "ControllerRevision" })
    .watches({ apiVersion: "v1", kind: "Node" }, everySet)
    .complete(new DaemonSetReconciler(client, recorder, now));
}
