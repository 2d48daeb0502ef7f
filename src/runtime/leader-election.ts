/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's: a candidate
 * takes the lease when it is free or expired, renews it while leading, and steps
 * down (aborting the leader's signal) when it cannot renew within the deadline.
 * Writes are guarded by resourceVersion, so two candidates never both win.
 */
import type { KubeObject } from "../api/index.js";
import { getOptional, type Reader, type Writer } from "../client/index.js";
import { type Clock, realClock } from "./clock.js";

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** The time leases are read and renewed by (a FakeClock in tests). */
  clock?: Clock;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

export class LeaderElector {
  private readonly leaseMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryMs: number;
  private readonly clock: Clock;

  constructor(
    private readonly client: Reader & Writer,
    private readonly opts: LeaderElectionOptions,
  ) {
    this.leaseMs = opts.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = opts.renewDeadlineMs ?? 10_000;
    this.retryMs = opts.retryPeriodMs ?? 2_000;
    this.clock = opts.clock ?? realClock;
  }

  /**
   * Campaigns until `signal` aborts. Each time it wins, `lead` runs with a signal
   * that aborts when leadership is lost (or `signal` aborts).
   */
  async run(signal: AbortSignal, lead: (leading: AbortSignal) => Promise<void>): Promise<void> {
    while (!signal.aborted) {
      if (!(await this.tryAcquireOrRenew().catch(() => false))) {
        await this.clock.sleep(this.retryMs, signal);
        continue;
      }
      const leading = new AbortController();
      const stop = () => leading.abort();
      signal.addEventListener("abort", stop, { once: true });
      const work = lead(leading.signal);
      await this.renewLoop(leading.signal);
      leading.abort();
      signal.removeEventListener("abort", stop);
      await work.catch(() => undefined);
    }
  }

  /** Renews until a renewal fails for longer than the deadline or `leading` aborts. */
  private async renewLoop(leading: AbortSignal): Promise<void> {
    let lastRenew = this.clock.now();
    while (!leading.aborted) {
      await this.clock.sleep(this.retryMs, leading);
      if (leading.aborted) return;
      if (await this.tryAcquireOrRenew().catch(() => false)) lastRenew = this.clock.now();
      else if (this.clock.now() - lastRenew > this.renewDeadlineMs) return;
    }
  }

  /** True when this candidate holds the lease after the call. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    const { namespace, name, identity } = this.opts;
    const spec: LeaseSpec = {
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(this.leaseMs / 1000),
      renewTime: microTime(now),
    };
    const lease = { apiVersion: "coordination.k8s.io/v1", kind: "Lease", name, namespace };
    const current = await getOptional(this.client, lease);
    if (!current) {
      await this.client.create({
        apiVersion: "coordination.k8s.io/v1",
        kind: "Lease",
        metadata: { name, namespace },
        spec: { ...spec, acquireTime: microTime(now), leaseTransitions: 0 },
      });
      return true;
    }
    const held = (current.spec ?? {}) as LeaseSpec;
    const renewed = held.renewTime ? Date.parse(held.renewTime) : 0;
    const expired = renewed + (held.leaseDurationSeconds ?? 0) * 1000 < now;
    if (held.holderIdentity && held.holderIdentity !== identity && !expired) return false;
    const taking = held.holderIdentity !== identity;
    const next: KubeObject = {
      ...current,
      spec: {
        ...held,
        ...spec,
        acquireTime: taking ? microTime(now) : held.acquireTime,
        leaseTransitions: (held.leaseTransitions ?? 0) + (taking ? 1 : 0),
      },
    };
    await this.client.update(next);
    return true;
  }
}
