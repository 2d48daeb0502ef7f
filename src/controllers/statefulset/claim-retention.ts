/**
 * persistentVolumeClaimRetentionPolicy as owner references on the claims, the
 * way kube's StatefulSetAutoDeletePVC does it, so the garbage collector does the
 * deleting: `whenDeleted: Delete` makes the StatefulSet an owner of every claim
 * (deleting the set deletes them); `whenScaled: Delete` makes the pod of a
 * condemned ordinal (one past `replicas`) the owner of its claims, just before
 * the pod is deleted (so the claims go with it). An ordinal back in range loses
 * its pod reference again. `Retain` adds no reference; references to anything
 * else are kept.
 */
import type { OwnerReference, Pod, StatefulSet } from "../../api/index.js";
import type { Claim } from "./stateful-pods.js";

const refTo = (apiVersion: string, kind: string, obj: Pod | StatefulSet): OwnerReference => ({
  apiVersion,
  kind,
  name: obj.metadata.name ?? "",
  uid: obj.metadata.uid ?? "",
});

/**
 * The owner references the claim of `podName`'s ordinal should carry (`pod`: the
 * live pod of that name, if any); undefined when it carries them already.
 */
export function claimOwners(
  set: StatefulSet,
  claim: Claim,
  podName: string,
  pod: Pod | undefined,
  condemned: boolean,
): OwnerReference[] | undefined {
  const policy = set.spec.persistentVolumeClaimRetentionPolicy ?? {};
  const current = claim.metadata.ownerReferences ?? [];
  const scaledAway = condemned && policy.whenScaled === "Delete";
  const ofPod = (r: OwnerReference) => r.kind === "Pod" && r.name === podName;
  const others = current.filter((r) => r.uid !== set.metadata.uid && !ofPod(r));
  let podRefs: OwnerReference[] = [];
  if (scaledAway) podRefs = pod ? [refTo("v1", "Pod", pod)] : current.filter(ofPod);
  const next = [
    ...others,
    ...(policy.whenDeleted === "Delete" && !scaledAway
      ? [refTo("apps/v1", "StatefulSet", set)]
      : []),
    ...podRefs,
  ];
  const key = (refs: OwnerReference[]) =>
    refs
      .map((r) => r.uid)
      .sort()
      .join(",");
  return key(next) === key(current) ? undefined : next;
}
