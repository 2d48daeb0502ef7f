/**
 * Fixtures of the storage controller tests: an envtest apiserver with the
 * storage controllers on a Manager of their own over a temporary volume pool
 * (restartable, to play a crash), and builders of claims, volumes, classes and
 * pods, plus readers of their end state.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from "../../src/api/index.js";
import type { AccessMode, ReclaimPolicy, VolumeBindingMode } from "../../src/api/storage.js";
import type { KubeObject } from "../../src/api/types.js";
import type { Client } from "../../src/client/index.js";
import { registerStorageControllers, VolumePool } from "../../src/controllers/storage/index.js";
import type { Clock } from "../../src/runtime/index.js";
import { type ManagerRun, runManager } from "../support/controller-run.js";
import { createNamespace, eventsAbout, getOrGone } from "../support/core-objects.js";
import { type Env, startEnv } from "../support/envtest.js";

export const GI = 1024n ** 3n;

export interface StorageTestEnv {
  env: Env;
  volumesDir: string;
  /** Starts the storage controllers on `client` (default: the env's), stopping any running. */
  start(opts?: {
    client?: Client;
    poolBytes?: bigint;
    pool?: (dir: string, bytes: bigint) => VolumePool;
    /** The Manager's clock (default: the machine's). */
    clock?: Clock;
  }): Promise<ManagerRun<void>>;
  claim(name: string, ns?: string): Promise<PersistentVolumeClaim | undefined>;
  volume(name: string): Promise<PersistentVolume | undefined>;
  /** The directory of volume `name` exists in the pool. */
  hasDir(name: string): boolean;
  /** `reason: message` of each Event about `name` in `ns`. */
  events(name: string, ns?: string): Promise<string[]>;
  stop(): Promise<void>;
}

export const NS = "store";

export async function startStorageTest(): Promise<StorageTestEnv> {
  const env = await startEnv();
  const root = mkdtempSync(join(tmpdir(), "hearth-storage-ctl-"));
  const volumesDir = join(root, "volumes");
  let running: ManagerRun<void> | undefined;
  await createNamespace(env.client, NS);
  const t: StorageTestEnv = {
    env,
    volumesDir,
    async start(opts = {}) {
      await running?.stop();
      const client = opts.client ?? env.client;
      const poolBytes = opts.poolBytes ?? 100n * GI;
      const pool = (opts.pool ?? ((d, b) => new VolumePool(d, b)))(volumesDir, poolBytes);
      running = await runManager(
        client,
        (m) => registerStorageControllers(m, client, { volumesDir, poolBytes, pool }),
        opts.clock ? { clock: opts.clock } : {},
      );
      return running;
    },
    claim: (name, ns = NS) =>
      getOrGone(env.client, {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        name,
        namespace: ns,
      }),
    volume: (name) => getOrGone(env.client, { apiVersion: "v1", kind: "PersistentVolume", name }),
    hasDir: (name) => existsSync(join(volumesDir, name)),
    events: (name, ns = NS) => eventsAbout(env.client, ns, name),
    async stop() {
      try {
        await running?.stop();
        await env.stop();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
  return t;
}

export function claimManifest(
  name: string,
  opts: {
    storage?: string;
    className?: string | null;
    accessModes?: AccessMode[];
    volumeName?: string;
    annotations?: Record<string, string>;
    ns?: string;
  } = {},
): PersistentVolumeClaim {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name,
      namespace: opts.ns ?? NS,
      ...(opts.annotations ? { annotations: opts.annotations } : {}),
    },
    spec: {
      accessModes: opts.accessModes ?? ["ReadWriteOnce"],
      resources: { requests: { storage: opts.storage ?? "1Gi" } },
      ...(opts.className === null ? {} : { storageClassName: opts.className ?? "local-path" }),
      ...(opts.volumeName ? { volumeName: opts.volumeName } : {}),
    },
  };
}

/** A pre-made (static) hostPath volume. */
export function volumeManifest(
  name: string,
  opts: {
    storage?: string;
    className?: string;
    accessModes?: AccessMode[];
    reclaim?: ReclaimPolicy;
    labels?: Record<string, string>;
  } = {},
): PersistentVolume {
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name, ...(opts.labels ? { labels: opts.labels } : {}) },
    spec: {
      capacity: { storage: opts.storage ?? "1Gi" },
      accessModes: opts.accessModes ?? ["ReadWriteOnce"],
      persistentVolumeReclaimPolicy: opts.reclaim ?? "Retain",
      storageClassName: opts.className ?? "manual",
      hostPath: { path: `/srv/${name}` },
    },
  };
}

export function classManifest(
  name: string,
  opts: {
    provisioner?: string;
    reclaimPolicy?: ReclaimPolicy;
    bindingMode?: VolumeBindingMode;
    isDefault?: boolean;
    expand?: boolean;
  } = {},
): StorageClass {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: {
      name,
      ...(opts.isDefault
        ? { annotations: { "storageclass.kubernetes.io/is-default-class": "true" } }
        : {}),
    },
    provisioner: opts.provisioner ?? "hearth.io/local-path",
    reclaimPolicy: opts.reclaimPolicy ?? "Delete",
    volumeBindingMode: opts.bindingMode ?? "Immediate",
    ...(opts.expand === undefined ? {} : { allowVolumeExpansion: opts.expand }),
  };
}

/** A pod naming claim `claimName` in its volumes. */
export function podUsing(name: string, claimName: string, ns = NS): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: ns },
    spec: {
      containers: [{ name: "c", image: "busybox" }],
      volumes: [{ name: "data", persistentVolumeClaim: { claimName } }],
    },
  };
}

/** True when the claim is Bound to `volume` both ways (the volume's claimRef names it, by uid). */
export function boundPair(claim: PersistentVolumeClaim, volume: PersistentVolume): boolean {
  const ref = volume.spec?.claimRef;
  return (
    claim.status?.phase === "Bound" &&
    volume.status?.phase === "Bound" &&
    claim.spec?.volumeName === volume.metadata.name &&
    ref?.uid === claim.metadata.uid &&
    ref?.name === claim.metadata.name
  );
}
