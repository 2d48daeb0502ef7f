/**
 * The core controllers `hearth up` runs against its own API: namespace
 * lifecycle, the garbage collector, the scheduler, the endpoints controller,
 * the batch controllers (Jobs, CronJobs) and the workload controllers
 * (Deployments, ReplicaSets, StatefulSets, DaemonSets), and the disruption
 * controller (PodDisruptionBudgets).
 * Everything goes through the client.
 */
import { setMaxListeners } from "node:events";
import { type Client, isNotFound } from "../client/index.js";
import { Manager } from "../runtime/index.js";
import { registerDaemonSetController } from "./daemonset/index.js";
import { DisruptionController } from "./disruption/index.js";
import { GarbageCollector } from "./garbage-collector/index.js";
import { registerBatchControllers } from "./jobs/index.js";
import { NamespaceReconciler } from "./namespace/index.js";
import { NodeLifecycleController } from "./node-lifecycle/index.js";
import { QuotaController } from "./quota/index.js";
import { Scheduler } from "./scheduler/index.js";
import { EndpointsController } from "./services/index.js";
import { registerStatefulSetController } from "./statefulset/index.js";
import { registerStorageControllers } from "./storage/index.js";
import { registerWorkloadControllers } from "./workloads/index.js";

export interface CoreControllerOptions {
  log?(msg: string, err?: unknown): void;
  /**
   * The volume pool (`DIR/volumes` and its size in bytes): when set, the storage
   * controllers (PV binding and provisioning, pvc/pv protection) run too.
   */
  storage?: { volumesDir: string; poolBytes: bigint };
  /** kube's node-monitor-grace-period in ms (default 40 s); see docs/node-lifecycle.md. */
  nodeMonitorGracePeriodMs?: number;
  /** Told the Manager before it starts (`hearth up` shares its cache with the platform's). */
  onManager?(manager: Manager): void;
}

/** Runs until `signal` aborts; resolves once every loop has stopped. */
export async function runCoreControllers(
  client: Client,
  signal: AbortSignal,
  opts: CoreControllerOptions = {},
): Promise<void> {
  const log = opts.log ?? (() => {});
  // Every informer and watch listens on this signal.
  setMaxListeners(0, signal);
  const manager = new Manager(client, {
    // A kind not served yet (a platform app kind, when the platform shares this
    // cache) is retried by its informer, not news.
    log: (msg, err) => {
      if (!(msg.endsWith(" informer") && isNotFound(err))) log(msg, err);
    },
  });
  manager
    .controller("namespace")
    .for({ apiVersion: "v1", kind: "Namespace" })
    .workers(2)
    .complete(new NamespaceReconciler(client));
  new GarbageCollector(client, {
    onError: (key, err) => log(`garbage collector ${key}`, err),
  }).register(manager);
  new Scheduler(client, { log }).register(manager);
  new NodeLifecycleController(client, {
    gracePeriodMs: opts.nodeMonitorGracePeriodMs,
    log,
  }).register(manager);
  new EndpointsController(client, { log }).register(manager);
  new QuotaController(client, { log }).register(manager);
  new DisruptionController(client, { log }).register(manager);
  registerBatchControllers(manager, client, { log });
  registerWorkloadControllers(manager, client, { log });
  registerStatefulSetController(manager, client, { log });
  registerDaemonSetController(manager, client, { log });
  if (opts.storage) registerStorageControllers(manager, client, { ...opts.storage, log });
  const started = manager.start(signal);
  opts.onManager?.(manager);
  await started;
}
