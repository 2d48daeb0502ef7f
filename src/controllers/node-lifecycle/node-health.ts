/**
 * What the controller has seen of each node's agent, by its own clock (as kube's
 * node lifecycle controller keeps `nodeHealthData`, to be immune to clock skew):
 * the last time a sign of life arrived — a new Lease `renewTime` or a new Ready
 * `lastHeartbeatTime` — counting the first sighting as one. A node is silent once
 * no sign came for the grace period. So a restarted controller gives every node
 * a full grace period again before it calls it silent.
 *
 * Also when each NoExecute taint started counting: its `timeAdded`, but never
 * before this controller started (kube's eviction timers restart with it), or
 * when first seen if it has none.
 */
import {
  type Lease,
  MESSAGE_NEVER_UPDATED,
  MESSAGE_STATUS_UNKNOWN,
  MONITORED_CONDITIONS,
  type NodeCondition,
  type NodeView,
  REASON_NEVER_UPDATED,
  REASON_STATUS_UNKNOWN,
  readyCondition,
  type Taint,
} from "./types.js";

interface Seen {
  heartbeat?: string;
  renewTime?: string;
  probeMs: number;
}

export class NodeHealth {
  private readonly seen = new Map<string, Seen>();
  private readonly taintSeen = new Map<string, number>();

  constructor(
    readonly gracePeriodMs: number,
    private readonly startedMs: number,
  ) {}

  /**
   * Takes in the node and its Lease; returns when the last sign of life was seen
   * and whether this is the first sighting of the node.
   */
  observe(
    node: NodeView,
    lease: Lease | undefined,
    nowMs: number,
  ): { probeMs: number; first: boolean } {
    const name = node.metadata.name ?? "";
    const old = this.seen.get(name);
    const ready = readyCondition(node);
    // A condition this controller wrote is no sign of the agent.
    const ours = ready?.reason === REASON_NEVER_UPDATED || ready?.reason === REASON_STATUS_UNKNOWN;
    const heartbeat = ours && old ? old.heartbeat : ready?.lastHeartbeatTime;
    const renewTime = lease?.spec?.renewTime;
    const alive =
      !old || old.heartbeat !== heartbeat || (!!renewTime && old.renewTime !== renewTime);
    const probeMs = alive ? nowMs : old.probeMs;
    this.seen.set(name, { heartbeat, renewTime, probeMs });
    return { probeMs, first: !old };
  }

  /** True when the node was observed and has given no sign of life for the grace period. */
  isSilent(name: string, nowMs: number): boolean {
    const s = this.seen.get(name);
    return !!s && nowMs - s.probeMs >= this.gracePeriodMs;
  }

  /** When `taint` on node `name` started counting for eviction. */
  taintSince(name: string, taint: Taint, nowMs: number): number {
    if (taint.timeAdded) {
      const added = Date.parse(taint.timeAdded);
      if (!Number.isNaN(added)) return Math.max(added, this.startedMs);
    }
    const key = `${name}\0${taint.key}\0${taint.value ?? ""}\0${taint.effect}`;
    const first = this.taintSeen.get(key);
    if (first !== undefined) return first;
    this.taintSeen.set(key, nowMs);
    return nowMs;
  }

  forget(name: string): void {
    this.seen.delete(name);
    for (const key of this.taintSeen.keys())
      if (key.startsWith(`${name}\0`)) this.taintSeen.delete(key);
  }
}

/**
 * A silent node's conditions as kube posts them: Ready, MemoryPressure,
 * DiskPressure and PIDPressure set to Unknown (reason NodeStatusUnknown), or
 * added as Unknown (NodeStatusNeverUpdated) when the agent never posted them;
 * undefined when they already say so.
 */
export function silentConditions(node: NodeView, now: string): NodeCondition[] | undefined {
  const conditions = [...(node.status?.conditions ?? [])];
  let changed = false;
  for (const type of MONITORED_CONDITIONS) {
    const i = conditions.findIndex((c) => c.type === type);
    const c = conditions[i];
    if (!c) {
      conditions.push({
        type,
        status: "Unknown",
        reason: REASON_NEVER_UPDATED,
        message: MESSAGE_NEVER_UPDATED,
        ...(node.metadata.creationTimestamp
          ? { lastHeartbeatTime: node.metadata.creationTimestamp }
          : {}),
        lastTransitionTime: now,
      });
      changed = true;
    } else if (c.status !== "Unknown") {
      conditions[i] = {
        ...c,
        status: "Unknown",
        reason: REASON_STATUS_UNKNOWN,
        message: MESSAGE_STATUS_UNKNOWN,
        lastTransitionTime: now,
      };
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}
