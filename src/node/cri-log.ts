/**
 * Reading a log file that a CRI runtime (containerd, CRI-O) writes, as the
 * kubelet serves it. Each record is one line
 * `<RFC3339Nano time> <stdout|stderr> <P|F>[:<more tags>] <content>\n`; the
 * runtime cuts a long line into records tagged P (partial: the line goes on in
 * that stream's next record) and ends it with an F record (full).
 *
 * The reader joins each stream's records into logical lines and outputs their
 * content only, so `tailLines` counts, `timestamps` stamps and `sinceSeconds`
 * /`sinceTime` filter logical lines; a line's time is the time of its first
 * record, as the runtime wrote it, printed as the kubelet prints it (RFC 3339
 * with nine fraction digits, in the offset it was written in). A line is
 * output when it ends, so lines of stdout and stderr come in the order they
 * were finished. (The kubelet works on records instead: a partial record
 * counts as a line for `tailLines`, and each record gets its own stamp, which
 * puts stamps in the middle of a long line.)
 *
 * A record that does not parse (no time, no stream, no tag) is skipped, as the
 * kubelet skips it. When following, a record without its newline yet and a
 * line without its F record yet wait for the next read; otherwise (and once
 * the run is over) they are read as they are, as the kubelet reads them.
 */
import { readFileSync } from "node:fs";
import { type LogOptions, type LogRead, readAfter, sinceOf } from "./log-reader.js";

export type CriStream = "stdout" | "stderr";

export interface CriTime {
  /** As the kubelet prints it: `2006-01-02T15:04:05.000000000Z07:00`. */
  stamp: string;
  /** Milliseconds since the epoch, to compare with `since`. */
  ms: number;
}

export interface CriRecord {
  time: CriTime;
  stream: CriStream;
  partial: boolean;
  content: Buffer;
}

export interface CriLine {
  time: CriTime;
  stream: CriStream;
  /** The line's bytes, with its newline unless the line was cut off. */
  content: Buffer;
}

const TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
const SPACE = 0x20;
const NEWLINE = Buffer.from("\n");

/** An RFC 3339 time with up to nanoseconds (Go's RFC3339NanoLenient); undefined if it is not one. */
export function parseCriTime(text: string): CriTime | undefined {
  const m = TIME.exec(text);
  if (!m) return undefined;
  const [, seconds, fraction = "", zone] = m;
  const ms = Date.parse(`${seconds}.${fraction.padEnd(3, "0").slice(0, 3)}${zone}`);
  if (Number.isNaN(ms)) return undefined;
  // Go prints a zero offset as "Z", whichever way it was written.
  const offset = zone === "+00:00" || zone === "-00:00" ? "Z" : zone;
  return { stamp: `${seconds}.${fraction.padEnd(9, "0")}${offset}`, ms };
}

/** One record, without its newline; undefined when it is not in CRI format. */
export function parseCriRecord(line: Buffer): CriRecord | undefined {
  const afterTime = line.indexOf(SPACE);
  if (afterTime < 0) return undefined;
  const time = parseCriTime(line.toString("latin1", 0, afterTime));
  if (!time) return undefined;
  const afterStream = line.indexOf(SPACE, afterTime + 1);
  if (afterStream < 0) return undefined;
  const stream = line.toString("latin1", afterTime + 1, afterStream);
  if (stream !== "stdout" && stream !== "stderr") return undefined;
  const afterTags = line.indexOf(SPACE, afterStream + 1);
  if (afterTags < 0) return undefined;
  // Tags are `:`-separated and only the first is defined; later ones are for the future.
  const tag = line.toString("latin1", afterStream + 1, afterTags).split(":")[0];
  return { time, stream, partial: tag === "P", content: line.subarray(afterTags + 1) };
}

/** Joins each stream's partial records into logical lines; holds unfinished ones between reads. */
export class CriLineJoiner {
  private readonly open = new Map<CriStream, { time: CriTime; parts: Buffer[] }>();

  /** The line `rec` finishes, if it does. */
  add(rec: CriRecord): CriLine | undefined {
    const open = this.open.get(rec.stream);
    if (rec.partial) {
      if (open) open.parts.push(rec.content);
      else this.open.set(rec.stream, { time: rec.time, parts: [rec.content] });
      return undefined;
    }
    this.open.delete(rec.stream);
    const parts = [...(open?.parts ?? []), rec.content, NEWLINE];
    return { time: open?.time ?? rec.time, stream: rec.stream, content: Buffer.concat(parts) };
  }

  /** The unfinished lines as they are (no newline), in the order they began; forgets them. */
  flush(): CriLine[] {
    const lines = [...this.open].map(([stream, o]) => ({
      time: o.time,
      stream,
      content: Buffer.concat(o.parts),
    }));
    this.open.clear();
    return lines;
  }
}

/**
 * The lines that `buf`'s records finish, and how many of its bytes were used:
 * up to its last newline, or all of it with `all` (which also flushes the
 * joiner's unfinished lines).
 */
export function criLines(
  buf: Buffer,
  joiner: CriLineJoiner,
  all: boolean,
): { lines: CriLine[]; used: number } {
  const lines: CriLine[] = [];
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(NEWLINE, start);
    if (end < 0) {
      if (!all) break;
      end = buf.length;
    }
    const rec = parseCriRecord(buf.subarray(start, end));
    const line = rec && joiner.add(rec);
    if (line) lines.push(line);
    start = end + 1;
  }
  if (all) lines.push(...joiner.flush());
  return { lines, used: Math.min(start, buf.length) };
}

function render(lines: CriLine[], timestamps: boolean): Buffer {
  return Buffer.concat(
    lines.flatMap((l) => (timestamps ? [Buffer.from(`${l.time.stamp} `), l.content] : [l.content])),
  );
}

/** The first `limit` bytes, less a UTF-8 character the limit would cut in two. */
function cut(buf: Buffer, limit: number): Buffer {
  if (buf.length <= limit) return buf;
  let end = limit;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end);
}

/** The CRI log `file` as `opts` select it; `more` then follows it from where this read stopped. */
export function readCriLog(file: string, opts: LogOptions, now = new Date()): LogRead {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    buf = Buffer.alloc(0);
  }
  const joiner = new CriLineJoiner();
  const first = criLines(buf, joiner, !opts.follow);
  let lines = first.lines;
  const since = sinceOf(opts, now);
  if (since !== undefined) lines = lines.filter((l) => l.time.ms >= since);
  if (opts.tailLines !== undefined)
    lines = opts.tailLines === 0 ? [] : lines.slice(-opts.tailLines);
  let text = render(lines, opts.timestamps === true);
  if (opts.limitBytes !== undefined) text = cut(text, opts.limitBytes);
  let offset = first.used;
  return {
    text: text.toString("utf8"),
    more(final) {
      const next = criLines(readAfter(file, offset), joiner, final);
      offset += next.used;
      return render(next.lines, opts.timestamps === true).toString("utf8");
    },
  };
}
