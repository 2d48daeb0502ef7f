/**
 * Runs the storage controllers against the API until a signal aborts: the PV
 * controller's two halves (claims, volumes), pvc-protection and pv-protection,
 * on shared informers of claims, volumes, classes and pods; the default class;
 * and the pool's sweep of half-made volumes (at start and then periodically).
 * Every key is also looked at again on a resync, so nothing waits on an event
 * that was missed.
 */

import { setMaxListeners } from "node:events";
import type { KubeObject, PersistentVolume, PersistentVolumeClaim } from "../../api/index.js";
import { claimKeyOf } from "../../api/index.js";
import { type Client, EventRecorder } from "../../client/index.js";
import { Controller, delay, Informer, objectKey } from "../../runtime/index.js";
import { ClaimReconciler } from "./claim-controller.js";
import { ensureDefaultStorageClass } from "./default-class.js";
import { LocalPathProvisioner } from "./local-path-provisioner.js";
import { PV, PVC, STORAGE_CLASS } from "./names.js";
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

export async function runStorageControllers(
  client: Client,
  signal: AbortSignal,
  opts: StorageControllerOptions,
): Promise<void> {
  const log = opts.log ?? (() => {});
  // Every informer, watch and timer listens on this signal.
  setMaxListeners(0, signal);
  const onError = (what: string) => (key: string, err: unknown) =>
    log(`${what} ${key}: reconcile failed`, err);
  const recorder = new EventRecorder(client, {
    component: "persistentvolume-controller",
    onError: (e) => log("storage event", e),
  });
  const provisioner = new LocalPathProvisioner(
    client,
    opts.pool ?? new VolumePool(opts.volumesDir, opts.poolBytes),
  );
  const informer = (type: { apiVersion: string; kind: string }) =>
    new Informer(client, { ...type, onError: (e) => log(`${type.kind} informer`, e) });
  const claims = informer(PVC);
  const volumes = informer(PV);
  const classes = informer(STORAGE_CLASS);
  const pods = informer({ apiVersion: "v1", kind: "Pod" });

  const claimController = new Controller(
    new ClaimReconciler({ client, recorder, provisioner, volumes, classes }),
    { name: "persistentvolume-claims", workers: 2, onError: onError("claim") },
  );
  const volumeController = new Controller(
    new VolumeReconciler({
      client,
      recorder,
      provisioner,
      enqueueClaim: (k) => claimController.enqueue(k),
    }),
    { name: "persistentvolume-volumes", workers: 2, onError: onError("volume") },
  );
  const pvcProtection = new Controller(new ClaimProtectionReconciler(client), {
    name: "pvc-protection",
    onError: onError("pvc-protection"),
  });
  const pvProtection = new Controller(new VolumeProtectionReconciler(client), {
    name: "pv-protection",
    onError: onError("pv-protection"),
  });

  const pendingClaims = () => {
    for (const c of claims.list() as PersistentVolumeClaim[])
      if (!c.spec?.volumeName) claimController.enqueue(objectKey(c));
  };
  const onClaim = (c: KubeObject) => {
    claimController.enqueue(objectKey(c));
    pvcProtection.enqueue(objectKey(c));
    const volumeName = (c as PersistentVolumeClaim).spec?.volumeName;
    if (volumeName) volumeController.enqueue(volumeName);
  };
  claims.addHandlers({
    onAdd: onClaim,
    onUpdate: (_o, c) => onClaim(c),
    onDelete: (c) => {
      onClaim(c);
      // Volumes made for the claim but not yet named by it are released too.
      for (const pv of volumes.list() as PersistentVolume[])
        if (claimKeyOf(pv) === objectKey(c)) volumeController.enqueue(pv.metadata.name!);
    },
  });
  const onVolume = (pv: KubeObject) => {
    volumeController.enqueue(pv.metadata.name!);
    pvProtection.enqueue(pv.metadata.name!);
    const claim = claimKeyOf(pv as PersistentVolume);
    if (claim) claimController.enqueue(claim);
  };
  volumes.addHandlers({
    onAdd: onVolume,
    onUpdate: (_o, pv) => onVolume(pv),
    onDelete: (pv) => {
      onVolume(pv);
      pendingClaims(); // space came back to the pool
    },
  });
  classes.addHandlers({ onAdd: pendingClaims, onUpdate: pendingClaims });
  const onPod = (pod: KubeObject) => {
    for (const name of claimsOfPod(pod)) pvcProtection.enqueue(`${pod.metadata.namespace}/${name}`);
  };
  pods.addHandlers({ onAdd: onPod, onUpdate: (_o, p) => onPod(p), onDelete: onPod });

  const housekeeping = async () => {
    while (!signal.aborted) {
      try {
        if (opts.defaultClass !== false) await ensureDefaultStorageClass(client);
        break;
      } catch (e) {
        log("cannot create the default StorageClass", e);
        await delay(1000, signal);
      }
    }
    while (!signal.aborted) {
      try {
        const removed = await provisioner.sweep();
        if (removed.length > 0) log(`volume pool: removed half-made volumes ${removed.join(", ")}`);
      } catch (e) {
        log("volume pool sweep failed", e);
      }
      await delay(opts.resyncMs ?? 30_000, signal);
      for (const c of claims.list()) onClaim(c);
      for (const pv of volumes.list()) onVolume(pv);
    }
  };

  const informers = [claims, volumes, classes, pods];
  const watching = Promise.all(informers.map((i) => i.run(signal)));
  // Decisions read the caches: none is made before every cache is filled.
  const synced = await Promise.all(informers.map((i) => i.waitForSync(signal)));
  if (synced.every(Boolean))
    await Promise.all([
      claimController.run(signal),
      volumeController.run(signal),
      pvcProtection.run(signal),
      pvProtection.run(signal),
      housekeeping(),
    ]);
  await watching;
  await recorder.flush();
}
