/**
 * The binding transaction of kube's PV controller, in its order: the volume's
 * `claimRef` first, then the volume's phase Bound, then the claim's
 * `volumeName` (with `pv.kubernetes.io/bind-completed`), then the claim's status
 * (Bound, the volume's access modes and capacity). Each step is skipped when
 * already done, so a binding cut short by a crash or a conflict is finished by
 * the next reconcile; every write carries the resourceVersion it read.
 */

import { isDeepStrictEqual } from "node:util";
import {
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  type ClaimPhase,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type VolumePhase,
} from "../../api/index.js";
import type { Client } from "../../client/index.js";

function annotate<T extends PersistentVolume | PersistentVolumeClaim>(
  obj: T,
  annotations: Record<string, string>,
): T["metadata"] {
  return { ...obj.metadata, annotations: { ...obj.metadata.annotations, ...annotations } };
}

/** True when the volume's claimRef names this claim with its uid. */
export function refersTo(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  return (
    ref?.name === claim.metadata.name &&
    ref?.namespace === claim.metadata.namespace &&
    ref?.uid === claim.metadata.uid
  );
}

/** Binds `pv` and `claim`; returns both as stored. */
export async function bind(
  client: Client,
  pv: PersistentVolume,
  claim: PersistentVolumeClaim,
): Promise<{ volume: PersistentVolume; claim: PersistentVolumeClaim }> {
  let volume = pv;
  if (!refersTo(volume, claim)) {
    const byController = !volume.spec?.claimRef;
    volume = await client.update<PersistentVolume>({
      ...volume,
      metadata: byController
        ? annotate(volume, { [ANN_BOUND_BY_CONTROLLER]: "yes" })
        : volume.metadata,
      spec: {
        ...volume.spec,
        claimRef: {
          apiVersion: "v1",
          kind: "PersistentVolumeClaim",
          namespace: claim.metadata.namespace ?? "",
          name: claim.metadata.name ?? "",
          uid: claim.metadata.uid ?? "",
          resourceVersion: claim.metadata.resourceVersion ?? "",
        },
      },
    });
  }
  volume = await setVolumePhase(client, volume, "Bound");
  let bound = claim;
  const name = volume.metadata.name!;
  if (bound.spec?.volumeName !== name || !bound.metadata.annotations?.[ANN_BIND_COMPLETED]) {
    const byController = !bound.spec?.volumeName;
    bound = await client.update<PersistentVolumeClaim>({
      ...bound,
      metadata: annotate(bound, {
        [ANN_BIND_COMPLETED]: "yes",
        ...(byController ? { [ANN_BOUND_BY_CONTROLLER]: "yes" } : {}),
      }),
      spec: { ...bound.spec, volumeName: name },
    });
  }
  const status = {
    ...bound.status,
    phase: "Bound" as const,
    accessModes: volume.spec?.accessModes ?? [],
    capacity: volume.spec?.capacity ?? {},
  };
  if (!isDeepStrictEqual(status, bound.status))
    bound = await client.updateStatus<PersistentVolumeClaim>({ ...bound, status });
  return { volume, claim: bound };
}

/** Sets the volume's phase (and the message and reason of a failure); a no-op when unchanged. */
export async function setVolumePhase(
  client: Client,
  pv: PersistentVolume,
  phase: VolumePhase,
  failure?: { reason: string; message: string },
): Promise<PersistentVolume> {
  const status = { ...pv.status, phase, ...failure };
  if (!failure) {
    delete status.reason;
    delete status.message;
  }
  if (isDeepStrictEqual(status, pv.status)) return pv;
  return client.updateStatus<PersistentVolume>({ ...pv, status });
}

/** Sets the claim's phase; a no-op when unchanged. */
export async function setClaimPhase(
  client: Client,
  claim: PersistentVolumeClaim,
  phase: ClaimPhase,
): Promise<PersistentVolumeClaim> {
  if (claim.status?.phase === phase) return claim;
  return client.updateStatus<PersistentVolumeClaim>({
    ...claim,
    status: { ...claim.status, phase },
  });
}
