/**
 * kube's LimitRanger admission plugin over the namespace's stored LimitRanges.
 * Mutating: a new pod's containers get their missing requests from their limits
 * (kube's pod defaulting), then each LimitRange's Container defaults, and the
 * pod's QoS class is recomputed. Validating: a new pod, and a new or updated
 * claim, must keep every LimitRange's min, max and ratio; a violation is 403
 * Forbidden with kube's wording (`pods "x" is forbidden: maximum cpu usage per
 * Container is 1, but limit is 2`). Objects being deleted are left alone.
 * LimitRanges are read from a watch-fed cache (store/object-cache.ts), as kube's
 * plugin reads its lister: a LimitRange written through this apiserver applies
 * once its write returns, one written through another once the watch brings it.
 */

import type { PersistentVolumeClaim, Pod } from "../../api/index.js";
import { ForbiddenError } from "../../api/index.js";
import type { Backend } from "../../storage/index.js";
import { qosClass } from "../resources/pod-defaults.js";
import type { LimitRange } from "../resources/quota-validation.js";
import type { FollowedPrefix } from "../store/cache-sync.js";
import { ObjectCache } from "../store/object-cache.js";
import {
  aggregate,
  claimLimitErrors,
  defaultPodResources,
  podLimitErrors,
  requestsFromLimits,
} from "./limit-range-rules.js";
import type { AdmissionAttributes, AdmissionPlugin } from "./types.js";

/** What the plugin acts on: new pods, and claims created or updated. */
function subject(attrs: AdmissionAttributes): "pod" | "claim" | undefined {
  if (attrs.subresource !== "" || attrs.type.group !== "" || !attrs.object) return undefined;
  if (attrs.oldObject?.metadata.deletionTimestamp) return undefined;
  if (attrs.type.plural === "pods" && attrs.operation === "CREATE") return "pod";
  if (
    attrs.type.plural === "persistentvolumeclaims" &&
    (attrs.operation === "CREATE" || attrs.operation === "UPDATE")
  )
    return "claim";
  return undefined;
}

export class LimitRanger implements AdmissionPlugin {
  readonly name = "LimitRanger";
  private readonly cache: ObjectCache;

  constructor(backend: Backend, log?: (msg: string, err?: unknown) => void) {
    this.cache = new ObjectCache(
      backend,
      { group: "", plural: "limitranges", namespaced: true },
      log,
    );
  }

  /** Loads the LimitRanges, then follows them until `signal` aborts. */
  start(signal: AbortSignal): Promise<void> {
    return this.cache.start(signal);
  }

  followed(): FollowedPrefix {
    return this.cache.followed();
  }

  private ranges(namespace: string): LimitRange[] {
    return this.cache.list(namespace) as LimitRange[];
  }

  admit(attrs: AdmissionAttributes): void {
    if (subject(attrs) !== "pod") return;
    const ranges = this.ranges(attrs.namespace);
    if (ranges.length === 0) return;
    const pod = attrs.object as Pod;
    requestsFromLimits(pod);
    for (const range of ranges) defaultPodResources(pod, range);
    if (pod.status) pod.status.qosClass = qosClass(pod);
  }

  validate(attrs: AdmissionAttributes): string[] {
    const what = subject(attrs);
    if (!what) return [];
    for (const range of this.ranges(attrs.namespace)) {
      const errors =
        what === "pod"
          ? podLimitErrors(range, attrs.object as Pod)
          : claimLimitErrors(range, attrs.object as PersistentVolumeClaim);
      if (errors.length > 0)
        throw new ForbiddenError(
          { group: "", resource: attrs.type.plural, name: attrs.name },
          aggregate(errors),
        );
    }
    return [];
  }
}
