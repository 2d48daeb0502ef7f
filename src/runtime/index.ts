/** The controller runtime: informers, the work queue and the reconcile loop. */

export {
  type BuiltController,
  ControllerBuilder,
  type EventHandler,
  type MapFunc,
  type RawSource,
  type RequestQueue,
  type SourceOptions,
} from "./builder.js";
export { Cache, type CacheListOptions, type CacheReadOptions } from "./cache.js";
export { CacheEntry, type IndexFunc, type Scope } from "./cache-entry.js";
export { type Clock, FakeClock, realClock } from "./clock.js";
export {
  type Condition,
  type ConditionStatus,
  findCondition,
  removeCondition,
  sameConditions,
  setCondition,
} from "./conditions.js";
export { type DiscoveredResource, discoverResources } from "./discovery.js";
export {
  delay,
  Informer,
  type InformerHandlers,
  type InformerOptions,
  objectKey,
} from "./informer.js";
export { type LeaderElectionOptions, LeaderElector } from "./leader-election.js";
export { onStop, untilAborted } from "./lifecycle.js";
export {
  DEFAULT_RECONCILE_DEADLINE_MS,
  Manager,
  type ManagerOptions,
  type Runnable,
  runOnOwnManager,
} from "./manager.js";
export {
  metricsRegistry,
  reconcileErrors,
  reconcileTime,
  reconcileTotal,
  trackQueue,
  watchRestarts,
} from "./metrics.js";
export {
  annotationsChanged,
  anyOf,
  generationChanged,
  labelsChanged,
  type Predicate,
} from "./predicates.js";
export {
  DeadlineExceededError,
  DONE,
  type ReconcileContext,
  ReconcileLoop,
  type ReconcileResult,
  type Result,
  TerminalError,
  type TypedReconciler,
} from "./reconcile-loop.js";
export {
  type CallOptions,
  type ObjectRef,
  type Request,
  requestFromKey,
  requestKey,
  requestOf,
  type TypeRef,
} from "./refs.js";
export { type BackoffOptions, DEFAULT_BACKOFF, WorkQueue } from "./workqueue.js";
