/** What every app reconciler of one engine shares. */
import type { Client, EventRecorder } from "../../client/index.js";
import type { Cache, Clock } from "../../runtime/index.js";

export interface EngineContext {
  /** Writes, and the reads that must be live (the app itself, misses: `engine-reads.ts`). */
  client: Client;
  /** The Manager's cache, which serves the other reads; none: every read is live. */
  cache?: Cache;
  events: EventRecorder;
  /** `_cluster`: the platform's values, the same for every app. */
  cluster: Record<string, string>;
  /** Kinds of every served app. */
  appKinds(): string[];
  /** What teardown deadlines are measured with (default: the machine's clock). */
  clock?: Clock;
}
