/**
 * Reading a container's raw log file (what a bwrap run writes: its stdout and
 * stderr as they come) as the kubelet serves it: whole, its last `tailLines`
 * lines, at most `limitBytes`, lines since a time, each line prefixed with its
 * RFC 3339 time (`timestamps`), and following the file as it grows until the
 * run is over (`follow`). Also the options and the read shared with the CRI
 * format's reader (cri-log.ts).
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { readIndex, type Sample, timeOf } from "./log-index.js";

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

interface Line {
  text: string;
  end: number;
}

function splitLines(buf: Buffer, base: number): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] === 10) {
      out.push({ text: buf.subarray(start, i + 1).toString("utf8"), end: base + i + 1 });
      start = i + 1;
    }
  }
  if (start < buf.length)
    out.push({ text: buf.subarray(start).toString("utf8"), end: base + buf.length });
  return out;
}

function render(lines: Line[], samples: Sample[], opts: LogOptions, now: string): string {
  let out = "";
  for (const l of lines)
    out += opts.timestamps ? `${timeOf(samples, l.end, now)} ${l.text}` : l.text;
  return out;
}

/** The log as the options select it, and the byte offset it ends at (to follow from). */
export function readLog(
  file: string,
  opts: LogOptions,
  now = new Date(),
): { text: string; offset: number } {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return { text: "", offset: 0 };
  }
  let lines = splitLines(buf, 0);
  const since = sinceOf(opts, now);
  const samples = opts.timestamps || opts.sinceSeconds || opts.sinceTime ? readIndex(file) : [];
  const stamp = now.toISOString();
  if (since !== undefined) {
    lines = lines.filter((l) => Date.parse(timeOf(samples, l.end, stamp)) >= since);
  }
  if (opts.tailLines !== undefined)
    lines = opts.tailLines === 0 ? [] : lines.slice(-opts.tailLines);
  let text = render(lines, samples, opts, stamp);
  if (opts.limitBytes !== undefined)
    text = Buffer.from(text).subarray(0, opts.limitBytes).toString("utf8");
  return { text, offset: buf.length };
}

/** Bytes appended to `file` after `offset`, rendered; the new offset. */
export function readFrom(
  file: string,
  offset: number,
  opts: LogOptions,
): { text: string; offset: number } {
  const buf = readAfter(file, offset);
  if (buf.length === 0) return { text: "", offset };
  const lines = splitLines(buf, offset);
  const stamp = new Date().toISOString();
  return {
    text: render(lines, opts.timestamps ? readIndex(file) : [], opts, stamp),
    offset: offset + buf.length,
  };
}

/** `readLog`, then `readFrom` where the last read ended (a raw log has no unfinished lines to hold back). */
export function readRawLog(file: string, opts: LogOptions, now = new Date()): LogRead {
  const first = readLog(file, opts, now);
  let offset = first.offset;
  const follow: LogOptions = opts.timestamps ? { timestamps: true } : {};
  return {
    text: first.text,
    more() {
      const next = readFrom(file, offset, follow);
      offset = next.offset;
      return next.text;
    },
  };
}
