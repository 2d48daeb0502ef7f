/**
 * The `hearth.io/local-path` provisioner: turns a claim into a directory in the
 * volume pool and a PersistentVolume naming it (`pvc-<claim uid>`, hostPath
 * `DIR/volumes/<pv-name>`, type Directory so a freed volume is never silently
 * re-created by a mount), grows volumes, frees them and sweeps half-made ones.
 *
 * Capacity: the pool hands out at most its size. Every volume it provisioned
 * counts with its PV's capacity until that PV is gone — Released and Failed
 * ones too, since their directories still exist — so space comes back exactly
 * when a directory does. All of it runs under the pool's lock, against a live
 * list of volumes, so two claims never both take the last free bytes.
 */

import {
  ANN_BOUND_BY_CONTROLLER,
  ANN_PROVISIONED_BY,
  ANN_SELECTED_NODE,
  formatBytes,
  hasCode,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { capacityBytes, requestedBytes } from "./matching.js";
import {
  getOrUndefined,
  isPoolVolume,
  LOCAL_PATH_PROVISIONER,
  POOL_LABEL,
  PV,
  VOLUME_DIRECTORY_FINALIZER,
} from "./names.js";
import type { VolumePool } from "./volume-pool.js";

/** The volume, or why the pool would not provide it (the claim stays Pending). */
export type ProvisionResult = { volume: PersistentVolume } | { refused: string };

/** kube names a dynamically provisioned volume after its claim's uid. */
export function volumeNameFor(claim: PersistentVolumeClaim): string {
  return `pvc-${claim.metadata.uid}`;
}

/** The PersistentVolume the pool creates for `claim` in class `sc` at `path`. */
export function poolVolume(
  claim: PersistentVolumeClaim,
  sc: StorageClass,
  path: string,
): PersistentVolume {
  const node = claim.metadata.annotations?.[ANN_SELECTED_NODE];
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: {
      name: volumeNameFor(claim),
      labels: { [POOL_LABEL]: sc.metadata.name ?? "" },
      annotations: {
        [ANN_PROVISIONED_BY]: LOCAL_PATH_PROVISIONER,
        [ANN_BOUND_BY_CONTROLLER]: "yes",
      },
      finalizers: [VOLUME_DIRECTORY_FINALIZER],
    },
    spec: {
      capacity: { storage: claim.spec?.resources?.requests?.storage ?? "0" },
      accessModes: claim.spec?.accessModes ?? [],
      persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? "Delete",
      storageClassName: sc.metadata.name ?? "",
      volumeMode: "Filesystem",
      claimRef: {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        namespace: claim.metadata.namespace ?? "",
        name: claim.metadata.name ?? "",
        uid: claim.metadata.uid ?? "",
        resourceVersion: claim.metadata.resourceVersion ?? "",
      },
      hostPath: { path, type: "Directory" },
      ...(sc.mountOptions ? { mountOptions: sc.mountOptions } : {}),
      ...(node
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [
                      { key: "kubernetes.io/hostname", operator: "In", values: [node] },
                    ],
                  },
                ],
              },
            },
          }
        : {}),
    },
  };
}

export class LocalPathProvisioner {
  constructor(
    private readonly client: Client,
    readonly pool: VolumePool,
  ) {}

  /** Bytes held: the capacity of every volume the pool provisioned that still exists. */
  private async usedBytes(): Promise<bigint> {
    const list = await this.client.list<PersistentVolume>({
      apiVersion: PV.apiVersion,
      kind: PV.kind,
    });
    let used = 0n;
    for (const pv of list.items)
      if (isPoolVolume(pv)) used += capacityBytes(pv) > 0n ? capacityBytes(pv) : 0n;
    return used;
  }

  private async refusal(wanted: bigint, request: string): Promise<string | undefined> {
    const free = this.pool.capacityBytes - (await this.usedBytes());
    if (wanted <= free) return undefined;
    return `not enough space in the volume pool (requested ${request}, free ${formatBytes(free > 0n ? free : 0n)})`;
  }

  /** Creates the claim's volume (directory first, then the PV), or says why not. Idempotent. */
  provision(claim: PersistentVolumeClaim, sc: StorageClass): Promise<ProvisionResult> {
    return this.pool.locked(async () => {
      const name = volumeNameFor(claim);
      const existing = await getOrUndefined<PersistentVolume>(this.client, PV, name);
      if (existing) {
        await this.pool.commit(name);
        return { volume: existing };
      }
      if ((claim.spec?.volumeMode ?? "Filesystem") !== "Filesystem")
        return { refused: `${LOCAL_PATH_PROVISIONER} provides only volumeMode Filesystem` };
      if (claim.spec?.selector)
        return { refused: "claim Selector is not supported for dynamic provisioning" };
      const request = claim.spec?.resources?.requests?.storage ?? "0";
      const refused = await this.refusal(requestedBytes(claim), request);
      if (refused) return { refused };
      const path = await this.pool.create(name);
      // On failure the directory stays marked provisional: the sweep removes it
      // unless the PV turns out to exist after all.
      const volume = await this.client
        .create(poolVolume(claim, sc, path))
        .catch(async (e: unknown) => {
          if (!hasCode(e, 409)) throw e;
          return this.client.get<PersistentVolume>({
            apiVersion: PV.apiVersion,
            kind: PV.kind,
            name,
          });
        });
      await this.pool.commit(name);
      return { volume };
    });
  }

  /** Grows a bound pool volume to the claim's request when the pool has room. */
  expand(pv: PersistentVolume, claim: PersistentVolumeClaim): Promise<ProvisionResult> {
    return this.pool.locked(async () => {
      const fresh = await this.client.get<PersistentVolume>({
        apiVersion: PV.apiVersion,
        kind: PV.kind,
        name: pv.metadata.name!,
      });
      const delta = requestedBytes(claim) - capacityBytes(fresh);
      if (delta <= 0n) return { volume: fresh };
      const request = claim.spec?.resources?.requests?.storage ?? "0";
      const refused = await this.refusal(delta, `${formatBytes(delta)} more for ${request}`);
      if (refused) return { refused };
      const spec = { ...fresh.spec, capacity: { ...fresh.spec?.capacity, storage: request } };
      return { volume: await this.client.update({ ...fresh, spec }) };
    });
  }

  /** Removes the volume's directory; throws when it cannot. */
  free(pv: PersistentVolume): Promise<void> {
    return this.pool.locked(() => this.pool.remove(pv.metadata.name!));
  }

  /** Removes directories whose provisioning never produced a PV; returns their names. */
  sweep(): Promise<string[]> {
    return this.pool.locked(async () => {
      const list = await this.client.list<PersistentVolume>({
        apiVersion: PV.apiVersion,
        kind: PV.kind,
      });
      return this.pool.sweep(new Set(list.items.map((pv) => pv.metadata.name!)));
    });
  }
}
