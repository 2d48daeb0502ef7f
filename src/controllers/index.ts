/** Core controllers: namespace lifecycle, garbage collection, scheduling, service endpoints. */
export { type CoreControllerOptions, runCoreControllers } from "./core.js";
export { DisruptionController, type DisruptionControllerOptions } from "./disruption/index.js";
export { GarbageCollector } from "./garbage-collector/index.js";
export {
  CONTENT_REQUEUE_MS,
  KUBERNETES_FINALIZER,
  NamespaceReconciler,
} from "./namespace/index.js";
export { NodeLifecycleController, type NodeLifecycleOptions } from "./node-lifecycle/index.js";
export { QuotaController, type QuotaControllerOptions } from "./quota/index.js";
export { Scheduler, type SchedulerOptions } from "./scheduler/index.js";
export {
  EndpointsController,
  ResolveError,
  resolveHost,
  resolveService,
} from "./services/index.js";
export {
  ensureDefaultStorageClass,
  runStorageControllers,
  type StorageControllerOptions,
  VOLUME_DIRECTORY_FINALIZER,
  VolumePool,
} from "./storage/index.js";
