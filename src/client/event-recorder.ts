/**
 * Records core/v1 Events about objects, as client-go's event recorder does for
 * controllers: `recorder.event(obj, "Warning", "FailedCreate", "…")` returns at
 * once and writes in the background. An Event lives in the object's namespace
 * (`default` for cluster-scoped objects) and is named `<object>.<hex time>`.
 * The same event (object, type, reason, message) seen again within the
 * aggregation window bumps `count` and `lastTimestamp` of the existing Event
 * instead of creating another. Failures never reach the caller: they go to
 * `onError`, and writes beyond `maxPending` are dropped rather than queued.
 */

import type { KubeObject } from "../api/index.js";
import { ApiError, rfc3339 } from "../api/index.js";
import type { Writer } from "./interface.js";

export type EventType = "Normal" | "Warning";

export interface EventRecorderOptions {
  /** `source.component` and `reportingComponent`, e.g. `tenant-controller`. */
  component: string;
  /** `source.host` and `reportingInstance`. */
  host?: string;
  /** Repeats within this window update the existing Event (default 10 minutes). */
  aggregationWindowMs?: number;
  /** Writes in flight or waiting beyond which new events are dropped (default 1000). */
  maxPending?: number;
  /** Called with every failed write (and every dropped event). */
  onError?: (error: unknown, event: KubeObject) => void;
  /** The clock; tests pass their own. */
  now?: () => Date;
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
  lastSeenMs: number;
  /** The last write for this event; the next one waits for it. */
  write: Promise<void>;
}

const DEFAULT_WINDOW_MS = 10 * 60 * 1000;
const MAX_SEEN = 4096;

/** The involvedObject of an event about `obj`. */
export function objectReference(obj: KubeObject): Record<string, string> {
  const m = obj.metadata;
  const ref: Record<string, string> = { apiVersion: obj.apiVersion, kind: obj.kind };
  for (const [k, v] of Object.entries({
    name: m.name,
    namespace: m.namespace,
    uid: m.uid,
    resourceVersion: m.resourceVersion,
  }))
    if (v) ref[k] = v;
  return ref;
}

export class EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private readonly inFlight = new Set<Promise<void>>();
  private sequence = 0;

  constructor(
    private readonly client: Pick<Writer, "create" | "patch">,
    private readonly opts: EventRecorderOptions,
  ) {}

  /** Records an event about `regarding`; never throws and never waits for the API. */
  event(regarding: KubeObject, type: EventType, reason: string, message: string): void {
    try {
      this.record(regarding, type, reason, message);
    } catch (e) {
      this.report(e, regarding);
    }
  }

  /** Hands an error to `onError`; an error thrown there is dropped too. */
  private report(error: unknown, event: KubeObject): void {
    try {
      this.opts.onError?.(error, event);
    } catch {
      // onError is the last stop: nothing may reach the caller
    }
  }

  /** Resolves once every write started so far has finished (for tests and shutdown). */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private record(regarding: KubeObject, type: EventType, reason: string, message: string): void {
    const now = (this.opts.now ?? (() => new Date()))();
    const involvedObject = objectReference(regarding);
    const key = JSON.stringify([involvedObject, type, reason, message]);
    const window = this.opts.aggregationWindowMs ?? DEFAULT_WINDOW_MS;
    const previous = this.seen.get(key);
    if (previous && now.getTime() - previous.lastSeenMs <= window) {
      previous.count++;
      previous.lastSeenMs = now.getTime();
      const patch = { count: previous.count, lastTimestamp: rfc3339(now) };
      const event = this.newEvent(involvedObject, type, reason, message, now);
      this.enqueue(previous, event, () =>
        this.client
          .patch(
            { apiVersion: "v1", kind: "Event", name: previous.name, namespace: previous.namespace },
            patch,
            { type: "merge" },
          )
          .then(() => undefined),
      );
      return;
    }
    const event = this.newEvent(involvedObject, type, reason, message, now);
    const entry: Seen = {
      name: event.metadata.name!,
      namespace: event.metadata.namespace!,
      count: 1,
      firstTimestamp: rfc3339(now),
      lastSeenMs: now.getTime(),
      write: Promise.resolve(),
    };
    this.remember(key, entry);
    this.enqueue(entry, event, () => this.client.create(event).then(() => undefined));
  }

  private newEvent(
    involvedObject: Record<string, string>,
    type: EventType,
    reason: string,
    message: string,
    now: Date,
  ): KubeObject {
    const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(this.sequence++ % 1_000_000);
    const host = this.opts.host;
    return {
      apiVersion: "v1",
      kind: "Event",
      metadata: {
        name: `${involvedObject.name ?? "unknown"}.${nanos.toString(16)}`,
        namespace: involvedObject.namespace ?? "default",
      },
      involvedObject,
      reason,
      message,
      type,
      source: { component: this.opts.component, ...(host ? { host } : {}) },
      firstTimestamp: rfc3339(now),
      lastTimestamp: rfc3339(now),
      count: 1,
      reportingComponent: this.opts.component,
      reportingInstance: host ?? "",
    };
  }

  /** Runs `write` after the entry's previous write; a patch of a vanished Event creates it anew. */
  private enqueue(entry: Seen, event: KubeObject, write: () => Promise<void>): void {
    if (this.inFlight.size >= (this.opts.maxPending ?? 1000)) {
      this.report(new Error("too many events waiting to be written; dropped"), event);
      return;
    }
    const recreate = async (e: unknown) => {
      if (!(e instanceof ApiError && e.code === 404) || entry.count === 1) throw e;
      const fresh = { ...event, count: entry.count, firstTimestamp: entry.firstTimestamp };
      entry.name = fresh.metadata.name!;
      await this.client.create(fresh);
    };
    const run = entry.write
      .then(write)
      .catch(recreate)
      .catch((e: unknown) => this.report(e, event));
    entry.write = run;
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private remember(key: string, entry: Seen): void {
    this.seen.delete(key);
    this.seen.set(key, entry);
    if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.keys().next().value!);
  }
}

/**
 * A controller's recorder: failed writes logged as `<component>: recording an
 * event failed`, event times read from the controller's clock (epoch ms).
 */
export function controllerRecorder(
  client: Pick<Writer, "create" | "patch">,
  component: string,
  log: (msg: string, err?: unknown) => void,
  now: () => number,
): EventRecorder {
  return new EventRecorder(client, {
    component,
    onError: (e) => log(`${component}: recording an event failed`, e),
    now: () => new Date(now()),
  });
}
