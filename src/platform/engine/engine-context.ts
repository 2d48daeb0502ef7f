/** What every app reconciler of one engine shares. */
import type { Client, EventRecorder } from "../../client/index.js";
import type { Clock } from "../../runtime/index.js";

export interface EngineContext {
  client: Client;
  events: EventRecorder;
  /** `_cluster`: the platform's values, the same for every app. */
  cluster: Record<string, string>;
  /** Kinds of every served app. */
  appKinds(): string[];
  /** What teardown deadlines are measured with (default: the machine's clock). */
  clock?: Clock;
}
