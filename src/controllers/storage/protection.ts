/**
 * The protection controllers (kube's `pvcprotection` and `pvprotection`). Every
 * live claim carries `kubernetes.io/pvc-protection` and every live volume
 * `kubernetes.io/pv-protection` (added here too if a write dropped them).
 * A claim being deleted keeps its finalizer while any pod in its namespace that
 * has not terminated names it in `spec.volumes[].persistentVolumeClaim`; a
 * volume being deleted keeps its finalizer while it is Bound to a claim that
 * still exists.
 *
 * Unlike kube, an unscheduled pod counts as a user too: kube relies on the
 * kubelet refusing to start a pod whose claim is being deleted, and Hearth's
 * node agent is not asked to — so the claim waits for every pod that could
 * still mount it. Pods that finished (Succeeded, Failed) and pods deleted with
 * grace 0 do not count: nothing of theirs runs.
 */
import type { KubeObject, PersistentVolume, PersistentVolumeClaim } from "../../api/index.js";
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import {
  DONE,
  type Request,
  type Result,
  requestKey,
  type TypedReconciler,
} from "../../runtime/index.js";
import { getOrUndefined, hasFinalizer, PV, PVC, splitKey, withFinalizer } from "./names.js";

interface PodLike extends KubeObject {
  spec?: { volumes?: { persistentVolumeClaim?: { claimName?: string } }[] };
  status?: { phase?: string };
}

/** The claims a pod names in its volumes. */
export function claimsOfPod(pod: KubeObject): string[] {
  const volumes = (pod as PodLike).spec?.volumes ?? [];
  return volumes.flatMap((v) =>
    v.persistentVolumeClaim?.claimName ? [v.persistentVolumeClaim.claimName] : [],
  );
}

/** True when the pod may still mount the claim. */
export function podUsesClaim(pod: KubeObject, claimName: string): boolean {
  const phase = (pod as PodLike).status?.phase;
  if (phase === "Succeeded" || phase === "Failed") return false;
  const meta = pod.metadata;
  if (meta.deletionTimestamp && meta.deletionGracePeriodSeconds === 0) return false;
  return claimsOfPod(pod).includes(claimName);
}

export class ClaimProtectionReconciler implements TypedReconciler {
  constructor(private readonly client: Client) {}

  async reconcile(req: Request): Promise<Result> {
    const key = requestKey(req);
    const { namespace, name } = splitKey(key);
    const claim = await getOrUndefined<PersistentVolumeClaim>(this.client, PVC, name, namespace);
    if (!claim) return DONE;
    const held = hasFinalizer(claim, PVC_PROTECTION_FINALIZER);
    if (!claim.metadata.deletionTimestamp) {
      if (!held) await this.client.update(withFinalizer(claim, PVC_PROTECTION_FINALIZER, true));
      return DONE;
    }
    if (!held) return DONE;
    // A live list, not a cache: a pod created a moment ago must not be missed.
    const pods = await this.client.list({ apiVersion: "v1", kind: "Pod" }, { namespace });
    if (pods.items.some((p) => podUsesClaim(p, name))) return DONE;
    await this.client.update(withFinalizer(claim, PVC_PROTECTION_FINALIZER, false));
    return DONE;
  }
}

export class VolumeProtectionReconciler implements TypedReconciler {
  constructor(private readonly client: Client) {}

  async reconcile(req: Request): Promise<Result> {
    const name = requestKey(req);
    const pv = await getOrUndefined<PersistentVolume>(this.client, PV, name);
    if (!pv) return DONE;
    const held = hasFinalizer(pv, PV_PROTECTION_FINALIZER);
    if (!pv.metadata.deletionTimestamp) {
      if (!held) await this.client.update(withFinalizer(pv, PV_PROTECTION_FINALIZER, true));
      return DONE;
    }
    if (!held || (await this.inUse(pv))) return DONE;
    await this.client.update(withFinalizer(pv, PV_PROTECTION_FINALIZER, false));
    return DONE;
  }

  private async inUse(pv: PersistentVolume): Promise<boolean> {
    if (pv.status?.phase !== "Bound") return false;
    const ref = pv.spec?.claimRef;
    if (!ref?.name) return false;
    const claim = await getOrUndefined(this.client, PVC, ref.name, ref.namespace);
    return claim !== undefined && (!ref.uid || claim.metadata.uid === ref.uid);
  }
}
