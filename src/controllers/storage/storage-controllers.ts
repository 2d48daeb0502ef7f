/**
 * Runs the storage controllers against the API until a signal aborts: the PV
 * controller's two halves (claims, volumes), pvc-protection and pv-protection,
 * on shared informers of claims, volumes, classes and pods; the default class;
 * and the pool's sweep of half-made volumes (at start and then periodically).
 * Every key is also looked at again on a resync, so nothing waits on an event
 * that was missed. The sweep's period and its retries run on the Manager's Clock.
 */

import type { KubeObject, PersistentVolume, PersistentVolumeClaim } from "../../api/index.js";
import { claimKeyOf } from "../../api/index.js";
import { type Client, EventRecorder } from "../../client/index.js";
import {
  type Clock,
  type EventHandler,
  type Manager,
  objectKey,
  type RequestQueue,
  requestFromKey,
  requestOf,
  runOnOwnManager,
} from "../../runtime/index.js";
import { ClaimReconciler } from "./claim-controller.js";
import { ensureDefaultStorageClass } from "./default-class.js";
import { LocalPathProvisioner } from "./local-path-provisioner.js";
import { PV, PVC, STORAGE_CLASS } from "./names.js";

const POD = { apiVersion: "v1", kind: "Pod" };

import {
  ClaimProtectionReconciler,
  claimsOfPod,
  VolumeProtectionReconciler,
} from "./protection.js";
import { VolumeReconciler } from "./volume-controller.js";
import { VolumePool } from "./volume-pool.js";

export interface StorageControllerOptions {
  /** `DIR/volumes`: where volumes live. */
  volumesDir: string;
  /** Bytes the pool may hand out in total. */
  poolBytes: bigint;
  /** Create the `local-path` default class when absent (default true). */
  defaultClass?: boolean;
  /** How often every claim and volume is looked at again, and the pool swept (ms). */
  resyncMs?: number;
  /** The pool to use instead of one on `volumesDir` (tests inject failures). */
  pool?: VolumePool;
  log?(msg: string, err?: unknown): void;
}

/** Runs the storage controllers on `manager`, on its shared informers. */
export function registerStorageControllers(
  manager: Manager,
  client: Client,
  opts: StorageControllerOptions,
): void {
  const log = opts.log ?? (() => {});
  const recorder = new EventRecorder(client, {
    component: "persistentvolume-controller",
    onError: (e) => log("storage event", e),
  });
  const provisioner = new LocalPathProvisioner(
    client,
    opts.pool ?? new VolumePool(opts.volumesDir, opts.poolBytes),
  );
  const claims = manager.cache.informer(PVC).informer;
  const volumes = manager.cache.informer(PV).informer;
  const classes = manager.cache.informer(STORAGE_CLASS).informer;
  const byKey = (key: string) => requestFromKey(key);

  const pendingClaims = (q: RequestQueue) => {
    for (const c of claims.list() as PersistentVolumeClaim[])
      if (!c.spec?.volumeName) q.add(requestOf(c));
  };
  const claimController = manager
    .controller("persistentvolume-claims")
    .workers(2)
    .watchesWith(
      PVC,
      each((c, q) => q.add(requestOf(c))),
    )
    .watchesWith(PV, {
      ...each((pv, q) => {
        const claim = claimKeyOf(pv as PersistentVolume);
        if (claim) q.add(byKey(claim));
      }),
      delete: (pv, q) => {
        const claim = claimKeyOf(pv as PersistentVolume);
        if (claim) q.add(byKey(claim));
        pendingClaims(q); // space came back to the pool
      },
    })
    .watchesWith(STORAGE_CLASS, {
      create: (_c, q) => pendingClaims(q),
      update: (_o, _c, q) => pendingClaims(q),
    })
    .complete(new ClaimReconciler({ client, recorder, provisioner, volumes, classes }));
  const volumeController = manager
    .controller("persistentvolume-volumes")
    .workers(2)
    .watchesWith(PVC, {
      ...each((c, q) => {
        const volumeName = (c as PersistentVolumeClaim).spec?.volumeName;
        if (volumeName) q.add({ name: volumeName });
      }),
      delete: (c, q) => {
        const volumeName = (c as PersistentVolumeClaim).spec?.volumeName;
        if (volumeName) q.add({ name: volumeName });
        // Volumes made for the claim but not yet named by it are released too.
        for (const pv of volumes.list() as PersistentVolume[])
          if (claimKeyOf(pv) === objectKey(c)) q.add({ name: pv.metadata.name! });
      },
    })
    .watchesWith(
      PV,
      each((pv, q) => q.add({ name: pv.metadata.name! })),
    )
    .complete(
      new VolumeReconciler({
        client,
        recorder,
        provisioner,
        enqueueClaim: (k) => claimController.loop.enqueue(byKey(k)),
      }),
    );
  const pvcProtection = manager
    .controller("pvc-protection")
    .watchesWith(
      PVC,
      each((c, q) => q.add(requestOf(c))),
    )
    .watchesWith(
      POD,
      each((pod, q) => {
        for (const name of claimsOfPod(pod))
          q.add({ namespace: pod.metadata.namespace ?? "", name });
      }),
    )
    .complete(new ClaimProtectionReconciler(client));
  const pvProtection = manager
    .controller("pv-protection")
    .watchesWith(
      PV,
      each((pv, q) => q.add({ name: pv.metadata.name! })),
    )
    .complete(new VolumeProtectionReconciler(client));

  const resync = () => {
    for (const c of claims.list()) {
      claimController.loop.enqueue(requestOf(c));
      pvcProtection.loop.enqueue(requestOf(c));
      const volumeName = (c as PersistentVolumeClaim).spec?.volumeName;
      if (volumeName) volumeController.loop.enqueue({ name: volumeName });
    }
    for (const pv of volumes.list()) {
      volumeController.loop.enqueue({ name: pv.metadata.name! });
      pvProtection.loop.enqueue({ name: pv.metadata.name! });
      const claim = claimKeyOf(pv as PersistentVolume);
      if (claim) claimController.loop.enqueue(byKey(claim));
    }
  };
  manager.add({
    start: async (signal) => {
      await housekeeping(client, provisioner, opts, log, resync, manager.clock, signal);
      await recorder.flush();
    },
  });
}

/** The same handler for a create, an update (of the new object) and a delete. */
function each(fn: (obj: KubeObject, q: RequestQueue) => void): EventHandler {
  return { create: fn, update: (_old, obj, q) => fn(obj, q), delete: fn };
}

/** The default class, then the pool's sweep and a resync of every key each period. */
async function housekeeping(
  client: Client,
  provisioner: LocalPathProvisioner,
  opts: StorageControllerOptions,
  log: (msg: string, err?: unknown) => void,
  resync: () => void,
  clock: Clock,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    try {
      if (opts.defaultClass !== false) await ensureDefaultStorageClass(client);
      break;
    } catch (e) {
      log("cannot create the default StorageClass", e);
      await clock.sleep(1000, signal);
    }
  }
  while (!signal.aborted) {
    try {
      const removed = await provisioner.sweep();
      if (removed.length > 0) log(`volume pool: removed half-made volumes ${removed.join(", ")}`);
    } catch (e) {
      log("volume pool sweep failed", e);
    }
    await clock.sleep(opts.resyncMs ?? 30_000, signal);
    if (!signal.aborted) resync();
  }
}

/** Runs the storage controllers alone, on a Manager of their own, until `signal` aborts. */
export async function runStorageControllers(
  client: Client,
  signal: AbortSignal,
  opts: StorageControllerOptions,
): Promise<void> {
  await runOnOwnManager(client, signal, (m) => registerStorageControllers(m, client, opts), {
    log: opts.log,
  });
}
