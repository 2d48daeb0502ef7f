/**
 * The volume half of the PV controller (kube's `syncVolume` and
 * `reclaimVolume`). A volume without a claim is Available; one whose claim
 * names it is Bound; one whose claim is gone (deleted, or re-created with
 * another uid) is Released and reclaimed by its policy:
 * - Retain keeps the volume and its directory for the admin;
 * - Delete frees a pool volume by removing its directory first and only then
 *   deleting the PV object, so the object never disappears while the directory
 *   remains; if the directory cannot be removed the volume goes Failed with the
 *   reason, a Warning Event is recorded, and the runtime retries with backoff;
 * - a volume of another provisioner, or Recycle, goes Failed: nothing here can
 *   free it.
 * A pool volume deleted directly (`kubectl delete pv`) is held by
 * `hearth.io/volume-directory` until it is no longer bound, then freed the same way.
 */
import type { PersistentVolume, PersistentVolumeClaim } from "../../api/index.js";
import { type Client, type EventRecorder, errorText, ignoreNotFound } from "../../client/index.js";
import {
  DONE,
  type Request,
  type Result,
  requestKey,
  type TypedReconciler,
} from "../../runtime/index.js";
import { setVolumePhase } from "./binding.js";
import type { LocalPathProvisioner } from "./local-path-provisioner.js";
import {
  getOrUndefined,
  hasFinalizer,
  isPoolVolume,
  PV,
  PVC,
  VOLUME_DIRECTORY_FINALIZER,
  withFinalizer,
} from "./names.js";

export interface VolumeControllerDeps {
  client: Client;
  recorder: EventRecorder;
  provisioner: LocalPathProvisioner;
  /** Told when a volume waits on its claim to finish binding. */
  enqueueClaim(key: string): void;
}

type ClaimState = "none" | "unbound-ref" | "bound" | "binding" | "elsewhere" | "gone";

export class VolumeReconciler implements TypedReconciler {
  constructor(private readonly deps: VolumeControllerDeps) {}

  async reconcile(req: Request): Promise<Result> {
    const name = requestKey(req);
    const { client } = this.deps;
    let pv = await getOrUndefined<PersistentVolume>(client, PV, name);
    if (!pv) return DONE;
    const state = await this.claimState(pv);
    if (pv.metadata.deletionTimestamp && state !== "bound" && state !== "binding")
      return this.reclaim(pv);
    switch (state) {
      case "none":
      case "unbound-ref":
        await setVolumePhase(client, pv, "Available");
        return DONE;
      case "bound":
        await setVolumePhase(client, pv, "Bound");
        return DONE;
      case "binding":
        this.deps.enqueueClaim(`${pv.spec!.claimRef!.namespace}/${pv.spec!.claimRef!.name}`);
        return DONE;
      case "elsewhere":
        if (isPoolVolume(pv)) break; // made for that claim alone: release it
        pv = await client.update<PersistentVolume>({
          ...pv,
          spec: { ...pv.spec, claimRef: undefined },
        });
        await setVolumePhase(client, pv, "Available");
        return DONE;
      case "gone":
        break;
    }
    if (pv.status?.phase !== "Released" && pv.status?.phase !== "Failed")
      pv = await setVolumePhase(client, pv, "Released");
    return this.reclaim(pv);
  }

  /** Where the volume's claim stands, read live: a cached miss must not release a volume. */
  private async claimState(pv: PersistentVolume): Promise<ClaimState> {
    const ref = pv.spec?.claimRef;
    if (!ref?.name) return "none";
    if (!ref.uid) return "unbound-ref";
    const claim = await getOrUndefined<PersistentVolumeClaim>(
      this.deps.client,
      PVC,
      ref.name,
      ref.namespace,
    );
    if (!claim || claim.metadata.uid !== ref.uid) return "gone";
    if (!claim.spec?.volumeName) return "binding";
    return claim.spec.volumeName === pv.metadata.name ? "bound" : "elsewhere";
  }

  private async reclaim(pv: PersistentVolume): Promise<Result> {
    const { client, recorder } = this.deps;
    const policy = pv.spec?.persistentVolumeReclaimPolicy ?? "Retain";
    const ours = isPoolVolume(pv);
    if (policy === "Retain") {
      // The admin keeps the data: a deleted PV lets go of its directory, which stays.
      if (pv.metadata.deletionTimestamp) await this.release(pv);
      return DONE;
    }
    if (policy !== "Delete" || !ours) {
      const message =
        policy === "Delete"
          ? `no volume plugin can delete volume ${pv.metadata.name}: it was not provisioned by this cluster's volume pool`
          : `reclaim policy ${policy} is not supported; delete the volume or set persistentVolumeReclaimPolicy to Retain or Delete`;
      if (pv.status?.message !== message)
        recorder.event(pv, "Warning", "VolumeFailedDelete", message);
      await setVolumePhase(client, pv, "Failed", { reason: "VolumeFailedDelete", message });
      return DONE;
    }
    try {
      await this.deps.provisioner.free(pv);
    } catch (e) {
      const message = `cannot remove the directory of volume ${pv.metadata.name}: ${errorText(e)}`;
      recorder.event(pv, "Warning", "VolumeFailedDelete", message);
      await setVolumePhase(client, pv, "Failed", { reason: "VolumeFailedDelete", message });
      throw new Error(message, { cause: e });
    }
    // The directory is gone: only now may the object go.
    if (!pv.metadata.deletionTimestamp)
      await ignoreNotFound(
        client.delete(
          { apiVersion: PV.apiVersion, kind: PV.kind, name: pv.metadata.name! },
          { preconditions: { uid: pv.metadata.uid! } },
        ),
      );
    await this.release(pv);
    return DONE;
  }

  /** Removes the directory finalizer, reading the volume again (a delete moved its revision). */
  private async release(pv: PersistentVolume): Promise<void> {
    const fresh = await getOrUndefined<PersistentVolume>(this.deps.client, PV, pv.metadata.name!);
    if (!fresh || !hasFinalizer(fresh, VOLUME_DIRECTORY_FINALIZER)) return;
    await this.deps.client.update(withFinalizer(fresh, VOLUME_DIRECTORY_FINALIZER, false));
  }
}
