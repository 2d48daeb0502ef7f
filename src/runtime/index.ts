/** The controller runtime: informers, the work queue and the reconcile loop. */

export { type Clock, FakeClock, realClock } from "./clock.js";
export {
  type Condition,
  type ConditionStatus,
  findCondition,
  removeCondition,
  sameConditions,
  setCondition,
} from "./conditions.js";
export {
  Controller,
  type ControllerOptions,
  DONE,
  type Reconciler,
  type Result,
  TerminalError,
} from "./controller.js";
export { type DiscoveredResource, discoverResources } from "./discovery.js";
export {
  delay,
  Informer,
  type InformerHandlers,
  type InformerOptions,
  objectKey,
} from "./informer.js";
export { type LeaderElectionOptions, LeaderElector } from "./leader-election.js";
export {
  metricsRegistry,
  reconcileErrors,
  reconcileTime,
  reconcileTotal,
  trackQueue,
  watchRestarts,
} from "./metrics.js";
export { type BackoffOptions, DEFAULT_BACKOFF, WorkQueue } from "./workqueue.js";
