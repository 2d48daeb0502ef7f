/**
 * The sentinels the fuzz requests aim at: one valid object per kind, plus the
 * home namespaces (`fuzz`, `tenant-root`). Created before the run; after a
 * request that succeeded, every sentinel whose storage key it touched is
 * checked and, if gone or being deleted, finished off (finalizers dropped,
 * grace period zero, namespaces finalized) and created again, so later
 * requests hit real objects.
 */

import type { KubeObject } from "../../../src/api/types.js";
import { objectKey } from "../../../src/apiserver/store/keys.js";
import type { HttpClient } from "../../../src/client/index.js";
import {
  apiVersionOf,
  FUZZ_KINDS,
  FUZZ_NAMESPACE,
  type FuzzKind,
  sentinelName,
  sentinelNamespace,
  TENANT_NAMESPACE,
} from "./catalogue.js";

interface Sentinel {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | undefined;
  make(): KubeObject;
}

const namespaceSentinel = (name: string, labels: Record<string, string>): Sentinel => ({
  apiVersion: "v1",
  kind: "Namespace",
  name,
  namespace: undefined,
  make: () => ({ apiVersion: "v1", kind: "Namespace", metadata: { name, labels } }),
});

function sentinelOf(k: FuzzKind): Sentinel {
  const name = sentinelName(k);
  const namespace = sentinelNamespace(k);
  return {
    apiVersion: apiVersionOf(k),
    kind: k.kind,
    name,
    namespace,
    make: () => k.valid(name, namespace) as KubeObject,
  };
}

export class Sentinels {
  /** Storage key → sentinel. */
  private readonly byKey = new Map<string, Sentinel>();
  private readonly homes: Sentinel[];
  /** Sentinels that could not be created (reported, then left out). */
  readonly broken: string[] = [];

  constructor(private readonly admin: HttpClient) {
    this.homes = [
      namespaceSentinel(FUZZ_NAMESPACE, { app: "fuzz" }),
      namespaceSentinel(TENANT_NAMESPACE, { "hearth.io/no-delete": "true" }),
    ];
    const core = { group: "", plural: "namespaces", namespaced: false };
    for (const h of this.homes) this.byKey.set(objectKey(core, undefined, h.name), h);
    for (const k of FUZZ_KINDS) {
      const where = {
        ...(k.storage ?? { group: k.group, plural: k.plural }),
        namespaced: k.namespaced,
      };
      this.byKey.set(objectKey(where, sentinelNamespace(k), sentinelName(k)), sentinelOf(k));
    }
  }

  /** Creates every sentinel; the ones the server refuses are listed in `broken`. */
  async createAll(): Promise<void> {
    for (const s of this.homes) await this.ensure(s);
    for (const s of this.byKey.values()) {
      if (this.homes.includes(s)) continue;
      try {
        await this.ensure(s);
      } catch (e) {
        this.broken.push(`${s.kind} ${s.name}: ${(e as Error).message}`);
      }
    }
  }

  /** Re-creates the sentinels stored under `keys` that are gone or going. */
  async repair(keys: Iterable<string>): Promise<void> {
    const touched = new Set<Sentinel>();
    for (const key of keys) {
      const s = this.byKey.get(key);
      if (s) touched.add(s);
    }
    // Home namespaces first: nothing can be created in a namespace that is going.
    for (const s of [...touched].sort(
      (a, b) => Number(this.homes.includes(b)) - Number(this.homes.includes(a)),
    ))
      await this.ensure(s).catch(() => undefined);
  }

  private async ensure(s: Sentinel): Promise<void> {
    const current = await this.get(s);
    if (current && !current.metadata.deletionTimestamp) return;
    if (current) await this.finish(s, current);
    await this.gone(s);
    await this.admin.create(s.make());
  }

  private async get(s: Sentinel): Promise<KubeObject | undefined> {
    try {
      return await this.admin.get({
        apiVersion: s.apiVersion,
        kind: s.kind,
        name: s.name,
        namespace: s.namespace,
      });
    } catch (e) {
      if ((e as { code?: number }).code === 404) return undefined;
      throw e;
    }
  }

  /** Ends the deletion of a sentinel that finalizers or a grace period hold. */
  private async finish(s: Sentinel, obj: KubeObject): Promise<void> {
    const ignore = () => undefined;
    if ((obj.metadata.finalizers ?? []).length > 0)
      await this.admin
        .patch(
          { apiVersion: s.apiVersion, kind: s.kind, name: s.name, namespace: s.namespace },
          { metadata: { finalizers: null } },
          { type: "merge" },
        )
        .catch(ignore);
    if (s.kind === "Namespace") {
      const body = {
        ...obj,
        metadata: { ...obj.metadata, finalizers: [] },
        spec: { finalizers: [] },
      };
      await this.admin
        .request("PUT", `/api/v1/namespaces/${s.name}/finalize`, JSON.stringify(body), {
          "Content-Type": "application/json",
        })
        .catch(ignore);
    }
    await this.admin
      .delete(
        { apiVersion: s.apiVersion, kind: s.kind, name: s.name, namespace: s.namespace },
        { gracePeriodSeconds: 0 },
      )
      .catch(ignore);
  }

  /** Waits (bounded) until the sentinel is no longer stored. */
  private async gone(s: Sentinel): Promise<void> {
    const deadline = Date.now() + 10_000;
    while ((await this.get(s)) !== undefined) {
      if (Date.now() > deadline) throw new Error(`${s.kind} ${s.name} does not go away`);
      await new Promise((r) => setImmediate(r));
    }
  }
}
