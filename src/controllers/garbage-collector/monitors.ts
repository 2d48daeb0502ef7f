/**
 * The garbage collector's monitors: one informer per resource that can be
 * listed, watched and deleted, re-discovered periodically and whenever a
 * CustomResourceDefinition changes, so new kinds are covered and removed kinds
 * stop being watched.
 */
import type { KubeObject } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import {
  type Cache,
  type Clock,
  discoverResources,
  type InformerHandlers,
} from "../../runtime/index.js";

export interface MonitorOptions {
  resyncDiscoveryMs?: number;
  /** The time the discovery resync waits on (the Manager's). */
  clock: Clock;
  onError?(err: unknown): void;
}

interface Monitored {
  apiVersion: string;
  kind: string;
}

export class Monitors {
  private readonly monitored = new Map<string, Monitored>();
  private wake?: () => void;

  constructor(
    private readonly client: Client,
    private readonly cache: Cache,
    private readonly handlers: InformerHandlers,
    private readonly opts: MonitorOptions,
  ) {}

  /** Asks for a discovery pass soon (a CRD changed). */
  refresh(): void {
    this.wake?.();
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.sync();
      } catch (e) {
        this.opts.onError?.(e);
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        void this.opts.clock.sleep(this.opts.resyncDiscoveryMs ?? 30_000, signal).then(resolve);
      });
    }
  }

  /** Watches every kind that can be listed, watched and deleted, on the Manager's shared informers. */
  private async sync(): Promise<void> {
    const resources = (await discoverResources(this.client)).filter((r) =>
      ["list", "watch", "delete"].every((v) => r.verbs.includes(v)),
    );
    const wanted = new Set(resources.map((r) => `${r.apiVersion}/${r.kind}`));
    for (const [key, type] of this.monitored) {
      if (!wanted.has(key)) {
        this.cache.drop(type);
        this.monitored.delete(key);
      }
    }
    for (const r of resources) {
      const key = `${r.apiVersion}/${r.kind}`;
      if (this.monitored.has(key)) continue;
      const type = { apiVersion: r.apiVersion, kind: r.kind };
      this.cache.informer(type).addHandlers(this.handlers);
      this.monitored.set(key, type);
    }
  }
}

export function isCrd(obj: KubeObject): boolean {
  return obj.kind === "CustomResourceDefinition";
}
