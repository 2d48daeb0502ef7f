/**
 * Reading a container's log file as the kubelet serves it: whole, its last
 * `tailLines` lines, at most `limitBytes`, lines since a time, each line
 * prefixed with its RFC 3339 time (`timestamps`), and following the file as it
 * grows until the run is over (`follow`).
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { readIndex, type Sample, timeOf } from "./log-index.js";

export interface LogOptions {
  tailLines?: number;
  limitBytes?: number;
  sinceSeconds?: number;
  timestamps?: boolean;
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
  const samples = opts.timestamps || opts.sinceSeconds ? readIndex(file) : [];
  const stamp = now.toISOString();
  if (opts.sinceSeconds !== undefined) {
    const since = now.getTime() - opts.sinceSeconds * 1000;
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
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return { text: "", offset };
  }
  if (size <= offset) return { text: "", offset };
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(size - offset);
    const n = readSync(fd, buf, 0, buf.length, offset);
    const lines = splitLines(buf.subarray(0, n), offset);
    const stamp = new Date().toISOString();
    return {
      text: render(lines, opts.timestamps ? readIndex(file) : [], opts, stamp),
      offset: offset + n,
    };
  } finally {
    closeSync(fd);
  }
}
