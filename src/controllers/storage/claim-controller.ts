/**
 * The claim half of the PV controller (kube's `syncClaim`). A pending claim
 * binds to the best existing volume, or — for a class whose provisioner is
 * `hearth.io/local-path` — gets a new volume from the pool; a claim of another
 * provisioner waits for it, a claim of a WaitForFirstConsumer class waits for
 * the scheduler's `volume.kubernetes.io/selected-node`. A bound claim is kept
 * bound, grows with its request when its class allows expansion, and goes Lost
 * when its volume disappears or is bound elsewhere. A claim being deleted gets
 * nothing new. Claims without any class get the default class later, as kube's
 * retroactive default StorageClass assignment does.
 */
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  BETA_CLASS_ANNOTATION,
  chooseDefaultClass,
  claimClassName,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from "../../api/index.js";
import type { Client, EventRecorder } from "../../client/index.js";
import {
  DONE,
  type Informer,
  type Request,
  type Result,
  requestKey,
  type TypedReconciler,
} from "../../runtime/index.js";
import { bind, refersTo, setClaimPhase } from "./binding.js";
import type { LocalPathProvisioner } from "./local-path-provisioner.js";
import { capacityBytes, findBestMatch, isVolumeBoundToClaim, requestedBytes } from "./matching.js";
import {
  getOrUndefined,
  isPoolVolume,
  LOCAL_PATH_PROVISIONER,
  PV,
  PVC,
  splitKey,
} from "./names.js";

/** How soon a claim the pool could not serve looks again (freed space also wakes it). */
export const POOL_RETRY_MS = 30_000;

export interface ClaimControllerDeps {
  client: Client;
  recorder: EventRecorder;
  provisioner: LocalPathProvisioner;
  volumes: Informer;
  classes: Informer;
}

export class ClaimReconciler implements TypedReconciler {
  constructor(private readonly deps: ClaimControllerDeps) {}

  async reconcile(req: Request): Promise<Result> {
    const key = requestKey(req);
    const { namespace, name } = splitKey(key);
    const claim = await getOrUndefined<PersistentVolumeClaim>(
      this.deps.client,
      PVC,
      name,
      namespace,
    );
    if (!claim || claim.metadata.deletionTimestamp) return DONE;
    return claim.spec?.volumeName ? this.syncBound(claim) : this.syncUnbound(claim);
  }

  private classNamed(name: string): StorageClass | undefined {
    return this.deps.classes.get(name) as StorageClass | undefined;
  }

  private event(
    claim: PersistentVolumeClaim,
    type: "Normal" | "Warning",
    reason: string,
    message: string,
  ) {
    this.deps.recorder.event(claim, type, reason, message);
  }

  private async syncUnbound(claim: PersistentVolumeClaim): Promise<Result> {
    const { client } = this.deps;
    if (
      claim.spec?.storageClassName === undefined &&
      !claim.metadata.annotations?.[BETA_CLASS_ANNOTATION]
    ) {
      const def = chooseDefaultClass(this.deps.classes.list() as StorageClass[]);
      if (def) {
        await client.update({
          ...claim,
          spec: { ...claim.spec, storageClassName: def.metadata.name },
        });
        return DONE;
      }
    }
    const className = claimClassName(claim);
    const sc = this.classNamed(className);
    const node = claim.metadata.annotations?.[ANN_SELECTED_NODE];
    if (sc?.volumeBindingMode === "WaitForFirstConsumer" && !node) {
      await setClaimPhase(client, claim, "Pending");
      this.event(
        claim,
        "Normal",
        "WaitForFirstConsumer",
        "waiting for first consumer to be created before binding",
      );
      return DONE;
    }
    const match = findBestMatch(claim, this.deps.volumes.list() as PersistentVolume[], node);
    if (match) {
      await bind(client, match, claim);
      return DONE;
    }
    const pending = await setClaimPhase(client, claim, "Pending");
    if (!className) {
      this.event(
        pending,
        "Normal",
        "FailedBinding",
        "no persistent volumes available for this claim and no storage class is set",
      );
      return DONE;
    }
    if (!sc) {
      this.event(
        pending,
        "Warning",
        "ProvisioningFailed",
        `storageclass.storage.k8s.io "${className}" not found`,
      );
      return DONE;
    }
    const claimed = await this.announceProvisioner(pending, sc.provisioner ?? "");
    if (sc.provisioner !== LOCAL_PATH_PROVISIONER) {
      this.event(
        claimed,
        "Normal",
        "ExternalProvisioning",
        `Waiting for a volume to be created either by the external provisioner '${sc.provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
      );
      return DONE;
    }
    const result = await this.deps.provisioner.provision(claimed, sc);
    if ("refused" in result) {
      this.event(claimed, "Warning", "ProvisioningFailed", result.refused);
      return { requeueAfter: POOL_RETRY_MS };
    }
    if (!refersTo(result.volume, claimed) && !isVolumeBoundToClaim(result.volume, claimed))
      throw new Error(`volume ${result.volume.metadata.name} is bound to another claim`);
    const { volume } = await bind(client, result.volume, claimed);
    this.event(
      claimed,
      "Normal",
      "ProvisioningSucceeded",
      `Successfully provisioned volume ${volume.metadata.name}`,
    );
    return DONE;
  }

  /** kube marks a claim with the provisioner expected to serve it before provisioning. */
  private async announceProvisioner(claim: PersistentVolumeClaim, provisioner: string) {
    const a = claim.metadata.annotations ?? {};
    if (
      a[ANN_STORAGE_PROVISIONER] === provisioner &&
      a[ANN_BETA_STORAGE_PROVISIONER] === provisioner
    )
      return claim;
    const annotations = {
      ...a,
      [ANN_STORAGE_PROVISIONER]: provisioner,
      [ANN_BETA_STORAGE_PROVISIONER]: provisioner,
    };
    return this.deps.client.update<PersistentVolumeClaim>({
      ...claim,
      metadata: { ...claim.metadata, annotations },
    });
  }

  private async syncBound(claim: PersistentVolumeClaim): Promise<Result> {
    const { client } = this.deps;
    const volumeName = claim.spec!.volumeName!;
    const completed = claim.metadata.annotations?.[ANN_BIND_COMPLETED] !== undefined;
    const pv = await getOrUndefined<PersistentVolume>(client, PV, volumeName);
    if (!pv) {
      if (!completed) return DONE; // the user named a volume that does not exist (yet)
      await setClaimPhase(client, claim, "Lost");
      this.event(
        claim,
        "Warning",
        "ClaimLost",
        "Bound claim has lost its PersistentVolume. Data on the volume is lost!",
      );
      return DONE;
    }
    if (pv.spec?.claimRef && !isVolumeBoundToClaim(pv, claim)) {
      if (!completed) {
        await setClaimPhase(client, claim, "Pending");
        this.event(
          claim,
          "Warning",
          "FailedBinding",
          `volume "${volumeName}" already bound to a different claim.`,
        );
        return DONE;
      }
      await setClaimPhase(client, claim, "Lost");
      this.event(
        claim,
        "Warning",
        "ClaimMisbound",
        "Two claims are bound to the same volume, this one is bound incorrectly",
      );
      return DONE;
    }
    if (!pv.spec?.claimRef && capacityBytes(pv) < requestedBytes(claim)) {
      this.event(
        claim,
        "Warning",
        "FailedBinding",
        `Cannot bind to requested volume "${volumeName}": requested PV is too small`,
      );
      return DONE;
    }
    const bound = await bind(client, pv, claim);
    return this.expand(bound.volume, bound.claim);
  }

  /** Grows a pool volume to a larger request; the claim's capacity follows its volume's. */
  private async expand(pv: PersistentVolume, claim: PersistentVolumeClaim): Promise<Result> {
    if (requestedBytes(claim) <= capacityBytes(pv) || !isPoolVolume(pv)) return DONE;
    const sc = this.classNamed(claimClassName(claim));
    if (sc?.allowVolumeExpansion !== true) return DONE;
    const result = await this.deps.provisioner.expand(pv, claim);
    if ("refused" in result) {
      this.event(claim, "Warning", "VolumeResizeFailed", result.refused);
      return { requeueAfter: POOL_RETRY_MS };
    }
    await bind(this.deps.client, result.volume, claim);
    this.event(
      claim,
      "Normal",
      "VolumeResizeSuccessful",
      `resize volume "${pv.metadata.name}" succeeded`,
    );
    return DONE;
  }
}
