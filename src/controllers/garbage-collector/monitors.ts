/**
 * The garbage collector's monitors: one informer per resource that can be
 * listed, watched and deleted, re-discovered periodically and whenever a
 * CustomResourceDefinition changes, so new kinds are covered and removed kinds
 * stop being watched.
 */
import type { KubeObject } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { delay, discoverResources, Informer, type InformerHandlers } from "../../runtime/index.js";

export interface MonitorOptions {
  resyncDiscoveryMs?: number;
  onError?(err: unknown): void;
}

export class Monitors {
  private readonly running = new Map<
    string,
    { informer: Informer; stop: AbortController; done: Promise<void> }
  >();
  private wake?: () => void;

  constructor(
    private readonly client: Client,
    private readonly handlers: InformerHandlers,
    private readonly opts: MonitorOptions = {},
  ) {}

  /** True once every current informer has listed once. */
  synced(): boolean {
    return [...this.running.values()].every((m) => m.informer.hasSynced());
  }

  /** Asks for a discovery pass soon (a CRD changed). */
  refresh(): void {
    this.wake?.();
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.sync(signal);
      } catch (e) {
        this.opts.onError?.(e);
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        void delay(this.opts.resyncDiscoveryMs ?? 30_000, signal).then(resolve);
      });
    }
    await Promise.all([...this.running.values()].map((m) => m.done));
  }

  private async sync(signal: AbortSignal): Promise<void> {
    const resources = (await discoverResources(this.client)).filter((r) =>
      ["list", "watch", "delete"].every((v) => r.verbs.includes(v)),
    );
    const wanted = new Set(resources.map((r) => `${r.apiVersion}/${r.kind}`));
    for (const [key, m] of this.running) {
      if (!wanted.has(key)) {
        m.stop.abort();
        this.running.delete(key);
      }
    }
    for (const r of resources) {
      const key = `${r.apiVersion}/${r.kind}`;
      if (this.running.has(key)) continue;
      const stop = new AbortController();
      signal.addEventListener("abort", () => stop.abort(), { once: true });
      const informer = new Informer(this.client, {
        apiVersion: r.apiVersion,
        kind: r.kind,
        onError: this.opts.onError,
      });
      informer.addHandlers(this.handlers);
      this.running.set(key, { informer, stop, done: informer.run(stop.signal) });
    }
  }
}

export function isCrd(obj: KubeObject): boolean {
  return obj.kind === "CustomResourceDefinition";
}
