/**
 * What a read of a container's log is asked for (kubelet's log options:
 * `tailLines`, `limitBytes`, `sinceSeconds`/`sinceTime`, `timestamps`,
 * `follow`) and what it gives back, with the two helpers the CRI format's
 * reader (cri-log.ts) builds on.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";

export interface LogOptions {
  tailLines?: number;
  limitBytes?: number;
  sinceSeconds?: number;
  sinceTime?: Date;
  timestamps?: boolean;
  /** The read will be followed: a reader that can tell leaves an unfinished line for later. */
  follow?: boolean;
}

/** A first read of a log as the options select it, and then what was appended to it. */
export interface LogRead {
  text: string;
  /**
   * The text appended since the last read, with `timestamps` only (tail, limit
   * and since select the first read). `final` once the run is over: what is
   * left unfinished will not be finished, so it is read as it is.
   */
  more(final: boolean): string;
}

/** The earliest time (ms) a line may have to be read: the later of `sinceSeconds` and `sinceTime`, as kubelet's NewLogOptions. */
export function sinceOf(opts: LogOptions, now: Date): number | undefined {
  const bySeconds =
    opts.sinceSeconds !== undefined ? now.getTime() - opts.sinceSeconds * 1000 : undefined;
  const byTime = opts.sinceTime?.getTime();
  if (bySeconds === undefined) return byTime;
  return byTime === undefined ? bySeconds : Math.max(bySeconds, byTime);
}

/** The bytes of `file` after `offset` (none when it is missing or not longer). */
export function readAfter(file: string, offset: number): Buffer {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return Buffer.alloc(0);
  }
  if (size <= offset) return Buffer.alloc(0);
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(size - offset);
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, offset));
  } finally {
    closeSync(fd);
  }
}
