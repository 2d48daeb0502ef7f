/**
 * Keeps the registry in step with stored CustomResourceDefinitions, written
 * through this apiserver or another on the same store: a list plus a watch
 * (relisted if the watch breaks). Writes through this apiserver wait for
 * `progress` (store/cache-sync.ts), so a CRD is served once its create returns.
 * A CRD being deleted stops being served, has all its objects removed, then
 * loses its cleanup finalizer — after a crash, on the next start.
 */

import type { KubeObject } from "../../api/index.js";
import { rfc3339 } from "../../api/index.js";
import type { Backend, KeyValue, StorageEvent } from "../../storage/index.js";
import type { ResourceRegistry } from "../resources/registry.js";
import { followPrefix, WatchProgress } from "../store/cache-sync.js";
import { collectionPrefix } from "../store/keys.js";
import { decodeObject, encodeObject } from "../store/object-store.js";
import { CRD_CLEANUP_FINALIZER, crdResourceType } from "./crd-kind.js";
import type { CrdSpec } from "./custom-types.js";
import { customResourceTypes } from "./custom-types.js";

const CLEANUP_POLL_MS = 200;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export class CrdRegistrar {
  private signal?: AbortSignal;
  private readonly cleaning = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  /** Names of the CRDs served, to drop those gone when a relist replaces the watch. */
  private readonly served = new Set<string>();
  /** How far the watch has delivered (writers wait on it: read-your-writes). */
  readonly progress = new WatchProgress();

  constructor(
    private readonly backend: Backend,
    private readonly registry: ResourceRegistry,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {}

  /** Serves every stored CRD, then follows changes until `signal` aborts. */
  start(signal: AbortSignal): Promise<void> {
    this.signal = signal;
    return followPrefix(
      this.backend,
      collectionPrefix(crdResourceType),
      {
        load: (items) => {
          const listed = items.map((kv) => decodeObject(kv));
          const names = new Set(listed.map((crd) => crd.metadata.name!));
          for (const name of this.served) if (!names.has(name)) this.forget(name);
          for (const crd of listed) this.observe(crd);
        },
        onEvent: (ev) => this.onEvent(ev),
      },
      { what: "CRD", progress: this.progress, signal, log: this.log },
    );
  }

  /** Waits for cleanups in flight (used on shutdown and by tests). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private onEvent(ev: StorageEvent): void {
    const crd = decodeObject(ev.kv);
    if (ev.type === "delete") this.forget(crd.metadata.name!);
    else this.observe(crd);
  }

  private forget(name: string): void {
    this.served.delete(name);
    this.registry.removeCustom(name);
  }

  private observe(crd: KubeObject): void {
    const name = crd.metadata.name!;
    this.served.add(name);
    if (!crd.metadata.deletionTimestamp) {
      this.registry.setCustom(name, customResourceTypes(crd));
      return;
    }
    // While its objects are removed the kind stays served (so their finalizers can be
    // removed), but takes no new objects; it goes once the CRD object is gone.
    this.registry.setCustom(
      name,
      customResourceTypes(crd).map((t) => ({ ...t, terminating: true })),
    );
    if (
      (crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER) &&
      !this.cleaning.has(name)
    ) {
      this.cleaning.add(name);
      const p = this.cleanup(crd, this.signal!)
        .catch((e) => this.log(`cleanup of CRD ${name} failed`, e))
        .finally(() => {
          this.cleaning.delete(name);
          this.pending.delete(p);
        });
      this.pending.add(p);
    }
  }

  /**
   * Deletes every object of the CRD's kind as a DELETE would (objects with
   * finalizers are marked and waited for), then removes the cleanup finalizer.
   */
  private async cleanup(crd: KubeObject, signal: AbortSignal): Promise<void> {
    const spec = crd.spec as CrdSpec;
    const prefix = collectionPrefix({ group: spec.group, plural: spec.names.plural });
    for (;;) {
      const page = await this.backend.list(prefix);
      if (page.items.length === 0) break;
      for (const kv of page.items) await this.deleteOne(kv).catch(() => undefined);
      await delay(CLEANUP_POLL_MS, signal);
      if (signal.aborted) return;
    }
    const key = `${collectionPrefix(crdResourceType)}${crd.metadata.name}`;
    for (let attempt = 0; attempt < 10; attempt++) {
      const kv = await this.backend.get(key);
      if (!kv) return;
      const current = decodeObject(kv);
      const finalizers = (current.metadata.finalizers ?? []).filter(
        (f) => f !== CRD_CLEANUP_FINALIZER,
      );
      try {
        if (finalizers.length === 0 && current.metadata.deletionTimestamp)
          await this.backend.delete(key, kv.modRevision);
        else
          await this.backend.update(
            key,
            encodeObject({ ...current, metadata: { ...current.metadata, finalizers } }),
            kv.modRevision,
          );
        return;
      } catch {
        // raced with another writer: read again
      }
    }
  }

  /** One object: removed if nothing holds it, else marked with a deletionTimestamp. */
  private async deleteOne(kv: KeyValue): Promise<void> {
    const obj = decodeObject(kv);
    if ((obj.metadata.finalizers ?? []).length === 0) {
      await this.backend.delete(kv.key, kv.modRevision);
    } else if (!obj.metadata.deletionTimestamp) {
      const now = rfc3339();
      const marked = {
        ...obj,
        metadata: { ...obj.metadata, deletionTimestamp: now, deletionGracePeriodSeconds: 0 },
      };
      await this.backend.update(kv.key, encodeObject(marked), kv.modRevision);
    }
  }
}
