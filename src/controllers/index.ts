/** Core controllers: namespace lifecycle, garbage collection. */
export { type CoreControllerOptions, runCoreControllers } from "./core.js";
export { GarbageCollector } from "./garbage-collector/index.js";
export { CONTENT_REQUEUE_MS, NamespaceReconciler } from "./namespace/index.js";
