/**
 * One watch on the Pods of a namespace that notes, per pod name, when its
 * `Ready=True` condition was first seen and when its deletion was — times taken
 * on arrival of the event, so waiting for them does not move them. A stream
 * the server ends resumes from the last resourceVersion seen.
 */
import type { Pod } from "../src/api/pod.js";
import type { Client } from "../src/client/index.js";

export class PodWatch {
  /** performance.now() when each pod was first seen Ready. */
  readonly readyAt = new Map<string, number>();
  /** performance.now() when each pod's DELETED event arrived. */
  readonly goneAt = new Map<string, number>();
  readonly errors: string[] = [];
  #wakers = new Set<() => void>();
  #broken = false;
  #done: Promise<void>;

  constructor(client: Client, namespace: string, resourceVersion: string, signal: AbortSignal) {
    this.#done = this.#loop(client, namespace, resourceVersion, signal);
  }

  /**
   * Waits until `cond` holds (checked after every event); false once `deadlineMs`
   * passes or the watch broke.
   */
  until(cond: () => boolean, deadlineMs: number): Promise<boolean> {
    if (cond() || this.#broken) return Promise.resolve(cond());
    return new Promise((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.#wakers.delete(check);
        resolve(ok);
      };
      const check = () => {
        if (cond() || this.#broken) finish(cond());
      };
      const timer = setTimeout(() => finish(cond()), deadlineMs);
      this.#wakers.add(check);
    });
  }

  /** Resolves once the watch has ended (after its signal aborted). */
  closed(): Promise<void> {
    return this.#done;
  }

  async #loop(client: Client, namespace: string, rv: string, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        for await (const ev of client.watch<Pod>(
          { apiVersion: "v1", kind: "Pod" },
          { namespace, resourceVersion: rv, signal },
        )) {
          this.#note(ev.type, ev.object);
          rv = ev.object.metadata?.resourceVersion ?? rv;
        }
      } catch (e) {
        if (signal.aborted) return;
        this.errors.push(e instanceof Error ? e.message : String(e));
        // A broken watch cannot time anything any more: every wait ends now.
        this.#broken = true;
        this.#wake();
        return;
      }
    }
  }

  #note(type: string, pod: Pod): void {
    const name = pod.metadata?.name;
    if (!name) return;
    const now = performance.now();
    if (type === "DELETED") this.goneAt.set(name, now);
    else if (
      !this.readyAt.has(name) &&
      pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True")
    )
      this.readyAt.set(name, now);
    this.#wake();
  }

  #wake(): void {
    for (const wake of [...this.#wakers]) wake();
  }
}

/** A PodWatch from the namespace's current resourceVersion (a LIST first), so it misses nothing after. */
export async function watchPods(
  client: Client,
  namespace: string,
  signal: AbortSignal,
): Promise<PodWatch> {
  const listed = await client.list({ apiVersion: "v1", kind: "Pod" }, { namespace });
  return new PodWatch(client, namespace, listed.metadata.resourceVersion ?? "", signal);
}
