/**
 * An informer: lists a kind, then watches from the list's resourceVersion,
 * keeping a cache of every object and telling handlers what was added, updated or
 * deleted. A watch that ends resumes from the last revision seen; a 410 Expired
 * relists (and reports objects that vanished meanwhile as deleted). Runs until
 * its signal aborts.
 */

import type { KubeObject } from "../api/index.js";
import { hasCode } from "../api/index.js";
import type { Reader, Watcher } from "../client/index.js";
import { type Clock, realClock } from "./clock.js";
import { watchRestarts } from "./metrics.js";

export interface InformerHandlers {
  onAdd?(obj: KubeObject): void;
  onUpdate?(old: KubeObject, obj: KubeObject): void;
  onDelete?(obj: KubeObject): void;
}

export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name}` : (obj.metadata.name ?? "");
}

export interface InformerOptions {
  apiVersion: string;
  kind: string;
  namespace?: string;
  labelSelector?: string;
  /** A field selector (`spec.nodeName=n1`): the cache holds only matching objects. */
  fieldSelector?: string;
  /** Called when list or watch fails with something other than 410 (then retried). */
  onError?(err: unknown): void;
  /** Delay before retrying after an error, ms. */
  retryMs?: number;
  /** The time that delay runs on (default: the machine's). */
  clock?: Clock;
}

export class Informer {
  private readonly cache = new Map<string, KubeObject>();
  private readonly handlers: InformerHandlers[] = [];
  private synced = false;
  private syncWaiters: (() => void)[] = [];
  private resourceVersion = "";

  constructor(
    private readonly client: Reader & Watcher,
    readonly opts: InformerOptions,
  ) {}

  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    if (this.synced) for (const obj of this.cache.values()) h.onAdd?.(obj);
  }

  get(key: string): KubeObject | undefined {
    return this.cache.get(key);
  }

  list(): KubeObject[] {
    return [...this.cache.values()];
  }

  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(signal: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => resolve(!signal.aborted);
      this.syncWaiters.push(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** Runs the list/watch loop until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    let needList = true;
    while (!signal.aborted) {
      try {
        if (needList) {
          await this.relist(signal);
          needList = false;
        }
        await this.watch(signal);
        if (!signal.aborted) watchRestarts.inc({ kind: this.opts.kind, reason: "ended" });
      } catch (err) {
        if (signal.aborted) return;
        if (hasCode(err, 410)) {
          watchRestarts.inc({ kind: this.opts.kind, reason: "expired" });
          needList = true;
          continue;
        }
        watchRestarts.inc({ kind: this.opts.kind, reason: "error" });
        if (hasCode(err, 404)) needList = true;
        this.opts.onError?.(err);
        await (this.opts.clock ?? realClock).sleep(this.opts.retryMs ?? 1000, signal);
      }
    }
  }

  private async relist(signal: AbortSignal): Promise<void> {
    const list = await this.client.list(
      { apiVersion: this.opts.apiVersion, kind: this.opts.kind },
      {
        ...(this.opts.namespace ? { namespace: this.opts.namespace } : {}),
        ...(this.opts.labelSelector ? { labelSelector: this.opts.labelSelector } : {}),
        ...(this.opts.fieldSelector ? { fieldSelector: this.opts.fieldSelector } : {}),
        // A list in flight when the informer stops is abandoned, not waited for.
        signal,
      },
    );
    const seen = new Set<string>();
    for (const obj of list.items) {
      obj.apiVersion ??= this.opts.apiVersion;
      obj.kind ??= this.opts.kind;
      const key = objectKey(obj);
      seen.add(key);
      this.upsert(key, obj);
    }
    for (const [key, obj] of this.cache) {
      if (!seen.has(key)) this.remove(key, obj);
    }
    this.resourceVersion = list.metadata.resourceVersion ?? "";
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private async watch(signal: AbortSignal): Promise<void> {
    const events = this.client.watch(
      { apiVersion: this.opts.apiVersion, kind: this.opts.kind },
      {
        resourceVersion: this.resourceVersion,
        allowWatchBookmarks: true,
        timeoutSeconds: 300 + Math.floor(Math.random() * 300),
        ...(this.opts.namespace ? { namespace: this.opts.namespace } : {}),
        ...(this.opts.labelSelector ? { labelSelector: this.opts.labelSelector } : {}),
        ...(this.opts.fieldSelector ? { fieldSelector: this.opts.fieldSelector } : {}),
        signal,
      },
    );
    for await (const ev of events) {
      const obj = ev.object;
      if (obj.metadata?.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
      if (ev.type === "BOOKMARK") continue;
      const key = objectKey(obj);
      if (ev.type === "DELETED") this.remove(key, this.cache.get(key) ?? obj);
      else this.upsert(key, obj);
    }
  }

  private upsert(key: string, obj: KubeObject): void {
    const old = this.cache.get(key);
    this.cache.set(key, obj);
    if (!old) for (const h of this.handlers) h.onAdd?.(obj);
    else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion)
      for (const h of this.handlers) h.onUpdate?.(old, obj);
  }

  private remove(key: string, obj: KubeObject): void {
    this.cache.delete(key);
    for (const h of this.handlers) h.onDelete?.(obj);
  }
}

/** Resolves once `ms` have passed on the machine's clock, or `signal` aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return realClock.sleep(ms, signal);
}
