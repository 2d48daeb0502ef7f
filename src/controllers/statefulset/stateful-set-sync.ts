/**
 * One pass of kube's StatefulSet update (stateful_set_control.go), over the
 * pods and claims read fresh from the API:
 *
 * 1. Replicas, ordinals `start … start+replicas-1`, ascending: a finished pod
 *    (Failed or Succeeded) is deleted, to be made again; a missing pod gets its
 *    claims first (a claim still being deleted makes it wait), then is created
 *    from the current revision below the partition and the update revision
 *    from it; claims get the retention policy's owner references. With
 *    `OrderedReady` the walk stops at the first pod that is not yet Running and
 *    Ready (and available for `minReadySeconds`) or is terminating.
 * 2. Condemned pods (ordinals outside that range), highest first: each gets
 *    its claims' owner references, then is deleted; with `OrderedReady` one at a
 *    time, and only once all replicas are healthy.
 * 3. RollingUpdate: from the highest ordinal down to the partition, pods of
 *    another revision are deleted (to be made again at the update revision)
 *    while fewer than `maxUnavailable` (default 1) of those ordinals are
 *    unavailable. OnDelete: nothing; a pod the user deletes comes back updated.
 *
 * Every write is idempotent on deterministic names, so a crash between any two
 * steps leaves a state the next pass continues from: a pod exists at most once
 * (its name is its ordinal) and its claims are never made twice.
 */
import type { ControllerRevision, Pod, StatefulSet } from "../../api/index.js";
import { hasCode, scaledValue } from "../../api/index.js";
import {
  type Client,
  type EventRecorder,
  errorText,
  ignoreNotFound,
  refOf,
} from "../../client/index.js";
import { templateOf } from "../history/index.js";
import { claimOwners } from "./claim-retention.js";
import {
  type Claim,
  claimsFor,
  isFinished,
  isHealthy,
  isTerminating,
  newPod,
  ordinalOf,
  podName,
  revisionOf,
  startOrdinal,
  untilAvailableMs,
} from "./stateful-pods.js";

export interface SyncInput {
  set: StatefulSet;
  /** The set's pods by name; the pass adds the pods it creates and drops the ones it deletes. */
  pods: Map<string, Pod>;
  claims: Map<string, Claim>;
  current: ControllerRevision;
  update: ControllerRevision;
  now: number;
}

/** What the pass waits for: undefined when nothing, else ms until a pod turns available (0: an event will come). */
export type Wait = number | undefined;

export class StatefulSetSync {
  private waitMs: Wait;

  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
    private readonly input: SyncInput,
  ) {}

  /** Runs the pass; returns how long until a time-based look is needed, if any. */
  async run(): Promise<Wait> {
    const { set } = this.input;
    const monotonic = set.spec.podManagementPolicy !== "Parallel";
    const start = startOrdinal(set);
    const end = start + (set.spec.replicas ?? 1);
    const condemned = [...this.input.pods.values()]
      .filter((p) => {
        const ord = ordinalOf(set, p);
        return ord !== undefined && (ord < start || ord >= end);
      })
      .sort((a, b) => ordinalOf(set, b)! - ordinalOf(set, a)!);
    for (let ord = start; ord < end; ord++)
      if (!(await this.replica(ord, start, monotonic)) && monotonic) return this.waitMs ?? 0;
    const firstUnhealthy = condemned.find((p) => !isHealthy(p));
    for (const pod of condemned) {
      if (isTerminating(pod)) {
        if (monotonic) return 0;
        continue;
      }
      if (monotonic && pod !== firstUnhealthy && firstUnhealthy !== undefined) return 0;
      await this.fixClaims(pod, ordinalOf(set, pod)!, true);
      await this.deletePod(pod);
      if (monotonic) return 0;
    }
    if ((set.spec.updateStrategy?.type ?? "RollingUpdate") === "RollingUpdate")
      await this.rollingUpdate(start, end);
    return this.waitMs;
  }

  /** Processes one ordinal in range; false when the monotonic walk must stop here. */
  private async replica(ord: number, start: number, monotonic: boolean): Promise<boolean> {
    const { set } = this.input;
    let pod = this.input.pods.get(podName(set, ord));
    if (pod && isFinished(pod) && !isTerminating(pod)) {
      this.recorder.event(
        set,
        "Warning",
        "RecreatingFailedPod",
        `StatefulSet ${set.metadata.namespace}/${set.metadata.name} is recreating failed Pod ${pod.metadata.name}`,
      );
      await this.deletePod(pod);
      return false;
    }
    if (!pod) {
      if (!(await this.fixClaims(undefined, ord, false))) return false;
      pod = await this.createPod(ord, start);
      return pod !== undefined && !monotonic;
    }
    if (!(await this.fixClaims(pod, ord, false))) return false;
    if (isTerminating(pod) || !isHealthy(pod)) return false;
    const until = untilAvailableMs(pod, set.spec.minReadySeconds ?? 0, this.input.now);
    if (until !== undefined && until > 0) {
      this.waitMs = Math.min(this.waitMs ?? until, until);
      return false;
    }
    return true;
  }

  /**
   * Creates the ordinal's missing claims and sets their owner references;
   * false when a claim is being deleted (the pod must wait for it to go).
   */
  private async fixClaims(pod: Pod | undefined, ord: number, condemned: boolean): Promise<boolean> {
    const { set } = this.input;
    let ready = true;
    for (const want of claimsFor(set, ord)) {
      const name = want.metadata.name!;
      let claim = this.input.claims.get(name);
      if (claim?.metadata.deletionTimestamp) {
        ready = false;
        continue;
      }
      if (!claim) {
        if (condemned) continue;
        claim = await this.createClaim(want, podName(set, ord));
      }
      const owners = claimOwners(set, claim, podName(set, ord), pod, condemned);
      if (owners) {
        const patch = {
          metadata: { ownerReferences: owners, resourceVersion: claim.metadata.resourceVersion },
        };
        const patched = await this.client.patch<Claim>(refOf(claim), patch, { type: "merge" });
        this.input.claims.set(name, patched);
      }
    }
    return ready;
  }

  private async createClaim(claim: Claim, pod: string): Promise<Claim> {
    const { set } = this.input;
    try {
      const created = await this.client.create(claim);
      this.input.claims.set(claim.metadata.name!, created);
      this.recorder.event(
        set,
        "Normal",
        "SuccessfulCreate",
        `create Claim ${claim.metadata.name} Pod ${pod} in StatefulSet ${set.metadata.name} success`,
      );
      return created;
    } catch (e) {
      if (hasCode(e, 409)) return this.client.get<Claim>(refOf(claim));
      this.recorder.event(
        set,
        "Warning",
        "FailedCreate",
        `create Claim ${claim.metadata.name} for Pod ${pod} in StatefulSet ${set.metadata.name} failed error: ${errorText(e)}`,
      );
      throw e;
    }
  }

  private async createPod(ord: number, start: number): Promise<Pod | undefined> {
    const { set, current, update } = this.input;
    const partition = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
    const rolling = (set.spec.updateStrategy?.type ?? "RollingUpdate") === "RollingUpdate";
    const revision = rolling && ord < start + partition ? current : update;
    const pod = newPod(set, templateOf(revision), revision.metadata.name!, ord);
    try {
      const created = await this.client.create(pod);
      this.input.pods.set(created.metadata.name!, created);
      this.recorder.event(
        set,
        "Normal",
        "SuccessfulCreate",
        `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`,
      );
      return created;
    } catch (e) {
      if (hasCode(e, 409)) return undefined; // the old pod is still going; look again
      this.recorder.event(
        set,
        "Warning",
        "FailedCreate",
        `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errorText(e)}`,
      );
      throw e;
    }
  }

  private async deletePod(pod: Pod): Promise<void> {
    const { set } = this.input;
    try {
      await ignoreNotFound(
        this.client.delete(refOf(pod), { preconditions: { uid: pod.metadata.uid } }),
      );
    } catch (e) {
      this.recorder.event(
        set,
        "Warning",
        "FailedDelete",
        `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errorText(e)}`,
      );
      throw e;
    }
    this.input.pods.set(pod.metadata.name!, {
      ...pod,
      metadata: { ...pod.metadata, deletionTimestamp: new Date(this.input.now).toISOString() },
    });
    this.recorder.event(
      set,
      "Normal",
      "SuccessfulDelete",
      `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`,
    );
  }

  /** Deletes out-of-date pods from the highest ordinal down, within maxUnavailable. */
  private async rollingUpdate(start: number, end: number): Promise<void> {
    const { set, update } = this.input;
    const rolling = set.spec.updateStrategy?.rollingUpdate ?? {};
    const min = start + (rolling.partition ?? 0);
    const maxUnavailable = Math.max(
      1,
      scaledValue(rolling.maxUnavailable ?? 1, end - start, false),
    );
    const minReady = set.spec.minReadySeconds ?? 0;
    const targets: Pod[] = [];
    for (let ord = end - 1; ord >= min; ord--) {
      const pod = this.input.pods.get(podName(set, ord));
      if (pod) targets.push(pod);
    }
    const unavailable = (p: Pod) =>
      isTerminating(p) || untilAvailableMs(p, minReady, this.input.now) !== 0;
    let budget = maxUnavailable - targets.filter(unavailable).length;
    for (const pod of targets) {
      if (budget <= 0) return;
      if (revisionOf(pod) === update.metadata.name || isTerminating(pod)) continue;
      await this.deletePod(pod);
      if (!unavailable(pod)) budget--;
    }
  }
}
