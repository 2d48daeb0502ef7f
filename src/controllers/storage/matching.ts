/**
 * Which existing volume a pending claim binds to, as kube's PV controller
 * chooses (`FindMatchingVolume` over volumes indexed by access modes):
 * a volume pre-bound to the claim (its `claimRef` names the claim) wins;
 * otherwise an Available volume of the claim's class whose access modes include
 * the claim's, whose volume mode equals the claim's, whose capacity covers the
 * request and whose labels match the claim's selector — the one with the fewest
 * access modes, then the smallest. Volumes being deleted are never chosen.
 */
import {
  claimClassName,
  isQuantity,
  labelSelectorFromObject,
  type PersistentVolume,
  type PersistentVolumeClaim,
  quantityValue,
  volumeClassName,
} from "../../api/index.js";

/** The claim's storage request in bytes (0 when absent or malformed). */
export function requestedBytes(claim: PersistentVolumeClaim): bigint {
  const q = claim.spec?.resources?.requests?.storage;
  return isQuantity(q) ? quantityValue(q!) : 0n;
}

/** The volume's capacity in bytes (-1 when absent or malformed: it fits nothing). */
export function capacityBytes(pv: PersistentVolume): bigint {
  const q = pv.spec?.capacity?.storage;
  return isQuantity(q) ? quantityValue(q!) : -1n;
}

/** kube's `IsVolumeBoundToClaim`: the claimRef names the claim, with its uid or none. */
export function isVolumeBoundToClaim(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata.uid;
}

/** The volume offers every access mode the claim asks for. */
export function accessModesCover(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const offered = pv.spec?.accessModes ?? [];
  return (claim.spec?.accessModes ?? []).every((m) => offered.includes(m));
}

const volumeMode = (mode: string | undefined) => mode ?? "Filesystem";

/** True when the volume's node affinity admits `node` by hostname (no affinity admits all). */
export function affinityAdmits(pv: PersistentVolume, node: string | undefined): boolean {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms || node === undefined) return true;
  return terms.some((t) =>
    (t.matchExpressions ?? []).every(
      (e) =>
        e.key !== "kubernetes.io/hostname" ||
        (e.operator === "In" && (e.values ?? []).includes(node)),
    ),
  );
}

/** The volume `claim` should bind to, or undefined. `node` is the scheduler's choice, if any. */
export function findBestMatch(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node?: string,
): PersistentVolume | undefined {
  const wanted = requestedBytes(claim);
  const className = claimClassName(claim);
  const selector = claim.spec?.selector ? labelSelectorFromObject(claim.spec.selector) : undefined;
  let best: { pv: PersistentVolume; modes: number; bytes: bigint } | undefined;
  for (const pv of volumes) {
    if (pv.spec?.claimRef && !isVolumeBoundToClaim(pv, claim)) continue;
    const bytes = capacityBytes(pv);
    if (bytes < wanted) continue;
    if (volumeMode(pv.spec?.volumeMode) !== volumeMode(claim.spec?.volumeMode)) continue;
    if (pv.metadata.deletionTimestamp) continue;
    if (!accessModesCover(pv, claim)) continue;
    if (!affinityAdmits(pv, node)) continue;
    if (isVolumeBoundToClaim(pv, claim)) return pv;
    if (pv.status?.phase !== "Available") continue;
    if (selector && !selector.matches((k) => pv.metadata.labels?.[k])) continue;
    if (volumeClassName(pv) !== className) continue;
    const modes = pv.spec?.accessModes?.length ?? 0;
    const better =
      !best ||
      modes < best.modes ||
      (modes === best.modes && bytes < best.bytes) ||
      (modes === best.modes && bytes === best.bytes && pv.metadata.name! < best.pv.metadata.name!);
    if (better) best = { pv, modes, bytes };
  }
  return best?.pv;
}
