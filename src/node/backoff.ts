/**
 * Crash-loop backoff as the kubelet does it (client-go `flowcontrol.Backoff`):
 * the first restart of a failed container is immediate and arms a delay of
 * `base` (10 s); each later restart must wait that delay after the container
 * finished, and doubles it up to `max` (5 min). A container that stays up for
 * twice `max` starts over. Kept in memory: an agent restart forgets it, as the
 * kubelet's does.
 */

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_CRASH_BACKOFF: BackoffOptions = { baseMs: 10_000, maxMs: 300_000 };

interface Entry {
  delayMs: number;
  lastUpdate: number;
}

export class CrashLoopBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly opts: BackoffOptions = DEFAULT_CRASH_BACKOFF,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * For a container that finished at `finishedAt`: the ms still to wait, or 0
   * when it may restart now (which arms the next, longer delay).
   */
  restartDelay(key: string, finishedAt: number): number {
    const now = this.now();
    const entry = this.entries.get(key);
    const expired = entry !== undefined && finishedAt - entry.lastUpdate > 2 * this.opts.maxMs;
    if (entry && !expired && now - finishedAt < entry.delayMs)
      return finishedAt + entry.delayMs - now;
    if (!entry || expired) {
      this.entries.set(key, { delayMs: this.opts.baseMs, lastUpdate: finishedAt });
    } else {
      entry.delayMs = Math.min(entry.delayMs * 2, this.opts.maxMs);
      entry.lastUpdate = finishedAt;
    }
    return 0;
  }

  /** The delay currently armed for `key` (for the CrashLoopBackOff message). */
  currentDelay(key: string): number {
    return this.entries.get(key)?.delayMs ?? this.opts.baseMs;
  }

  forget(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

/** `10s`, `1m20s`, `5m0s`: Go's duration format, as kube's messages show it. */
export function goDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s % 60}s`;
  return `${Math.floor(m / 60)}h${m % 60}m${s % 60}s`;
}
