import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseCriRecord, parseCriTime, readCriLog } from "./cri-log.js";

/** A record as containerd writes it. */
const rec = (time: string, stream: "stdout" | "stderr", tag: string, content: string) =>
  `2025-01-01T00:00:${time}Z ${stream} ${tag} ${content}\n`;

describe("CRI log format", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-cri-log-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const file = (text: string) => {
    const f = join(dir, `${n++}.log`);
    writeFileSync(f, text);
    return f;
  };

  it("parses a record's time, stream, tag and content; refuses what is not one", () => {
    const r = parseCriRecord(Buffer.from("2025-01-01T00:00:01.5Z stderr P:x a b "));
    assert.deepEqual(
      { ...r, content: r?.content.toString() },
      {
        time: { stamp: "2025-01-01T00:00:01.500000000Z", ms: Date.parse("2025-01-01T00:00:01.5Z") },
        stream: "stderr",
        partial: true,
        content: "a b ",
      },
    );
    assert.equal(parseCriRecord(Buffer.from("2025-01-01T00:00:01Z stdout F "))?.partial, false);
    for (const bad of [
      "plain text",
      "2025-01-01T00:00:01Z stdout",
      "2025-01-01T00:00:01Z stdout F",
      "2025-01-01T00:00:01Z stdin F x",
      "yesterday stdout F x",
      "2025-13-01T00:00:01Z stdout F x",
    ])
      assert.equal(parseCriRecord(Buffer.from(bad)), undefined, bad);
    // Go's RFC3339NanoFixed: nine digits, the offset as written, a zero offset as Z.
    assert.equal(parseCriTime("2025-01-01T02:00:00.123456789+02:00")?.stamp.length, 35);
    assert.equal(
      parseCriTime("2025-01-01T02:00:00+02:00")?.stamp,
      "2025-01-01T02:00:00.000000000+02:00",
    );
    assert.equal(
      parseCriTime("2025-01-01T00:00:00.1-00:00")?.stamp,
      "2025-01-01T00:00:00.100000000Z",
    );
    assert.equal(
      parseCriTime("2025-01-01T02:00:00+02:00")?.ms,
      parseCriTime("2025-01-01T00:00:00Z")?.ms,
    );
  });

  // stdout's line begins first and ends last; stderr's is cut in two between.
  const interleaved = [
    rec("01.000000001", "stdout", "P", "hel"),
    rec("02", "stderr", "P", "err"),
    rec("03", "stdout", "P", "l"),
    "not a CRI record\n",
    rec("04", "stderr", "F", "or"),
    rec("05", "stdout", "F", "o"),
    rec("06", "stdout", "F", "next"),
    rec("07", "stderr", "F", ""),
  ].join("");

  it("joins each stream's partials into lines, in the order they end, skipping what does not parse", () => {
    const f = file(interleaved);
    assert.equal(readCriLog(f, {}).text, "error\nhello\nnext\n\n");
    assert.equal(
      readCriLog(f, { timestamps: true }).text,
      [
        "2025-01-01T00:00:02.000000000Z error",
        "2025-01-01T00:00:01.000000001Z hello",
        "2025-01-01T00:00:06.000000000Z next",
        "2025-01-01T00:00:07.000000000Z ",
        "",
      ].join("\n"),
      "each line has the time of its first record",
    );
    assert.equal(readCriLog(join(dir, "missing.log"), {}).text, "");
  });

  it("counts logical lines for tailLines", () => {
    const f = file(interleaved);
    assert.equal(readCriLog(f, { tailLines: 3 }).text, "hello\nnext\n\n");
    assert.equal(readCriLog(f, { tailLines: 0 }).text, "");
    assert.equal(readCriLog(f, { tailLines: 99 }).text, "error\nhello\nnext\n\n");
    const long = file(
      rec("01", "stdout", "F", "short") +
        rec("02", "stdout", "P", "a".repeat(5)) +
        rec("03", "stdout", "P", "b".repeat(5)) +
        rec("04", "stdout", "F", "c"),
    );
    assert.equal(readCriLog(long, { tailLines: 1 }).text, "aaaaabbbbbc\n");
  });

  it("filters by the line's time for sinceSeconds and sinceTime, the later one winning", () => {
    const f = file(interleaved);
    const now = new Date("2025-01-01T00:00:08Z");
    assert.equal(readCriLog(f, { sinceSeconds: 5 }, now).text, "next\n\n");
    assert.equal(readCriLog(f, { sinceSeconds: 6 }, now).text, "error\nnext\n\n");
    assert.equal(
      readCriLog(f, { sinceTime: new Date("2025-01-01T00:00:01.5Z") }, now).text,
      "error\nnext\n\n",
      "hello began before sinceTime",
    );
    assert.equal(
      readCriLog(f, { sinceSeconds: 60, sinceTime: new Date("2025-01-01T00:00:07Z") }, now).text,
      "\n",
    );
    const later = new Date("2025-01-01T00:00:09Z");
    assert.equal(readCriLog(f, { sinceSeconds: 1, tailLines: 5 }, later).text, "");
  });

  it("caps the output at limitBytes, stamps included, never cutting a character in two", () => {
    const f = file(interleaved);
    assert.equal(readCriLog(f, { limitBytes: 8 }).text, "error\nhe");
    assert.equal(readCriLog(f, { limitBytes: 33, timestamps: true }).text.length, 33);
    const utf = file(rec("01", "stdout", "F", "añb"));
    assert.equal(readCriLog(utf, { limitBytes: 2 }).text, "a");
    assert.equal(readCriLog(utf, { limitBytes: 3 }).text, "añ");
    assert.equal(readCriLog(utf, { limitBytes: 0 }).text, "");
  });

  it("joins a character that the runtime cut between two records", () => {
    const euro = Buffer.from("€");
    const f = file("");
    appendFileSync(f, "2025-01-01T00:00:01Z stdout P ");
    appendFileSync(f, euro.subarray(0, 1));
    appendFileSync(f, "\n2025-01-01T00:00:02Z stdout F ");
    appendFileSync(f, euro.subarray(1));
    appendFileSync(f, "\n");
    assert.equal(readCriLog(f, {}).text, "€\n");
  });

  it("reads an unfinished record and line as they are when not following", () => {
    const f = file(rec("01", "stderr", "P", "cut") + rec("02", "stdout", "F", "whole").trimEnd());
    assert.equal(readCriLog(f, {}).text, "whole\ncut");
  });

  it("follows: an unfinished record or line waits for the rest, until the run is over", () => {
    const f = file(rec("01", "stdout", "F", "first") + rec("02", "stdout", "P", "lo"));
    const read = readCriLog(f, { follow: true, timestamps: true });
    assert.equal(read.text, "2025-01-01T00:00:01.000000000Z first\n");
    assert.equal(read.more(false), "", "the line is not finished");
    const last = rec("03", "stdout", "F", "ng");
    appendFileSync(f, last.slice(0, 20));
    assert.equal(read.more(false), "", "the record is not finished");
    appendFileSync(f, last.slice(20));
    assert.equal(read.more(false), "2025-01-01T00:00:02.000000000Z long\n");
    assert.equal(read.more(false), "");
    appendFileSync(
      f,
      rec("04", "stderr", "P", "never ends") + rec("05", "stdout", "F", "no nl").trimEnd(),
    );
    assert.equal(read.more(false), "");
    assert.equal(
      read.more(true),
      "2025-01-01T00:00:05.000000000Z no nl\n2025-01-01T00:00:04.000000000Z never ends",
      "once the run is over, what is left is read as it is",
    );
    assert.equal(read.more(true), "");
  });

  it("follows a log that does not exist yet", () => {
    const f = join(dir, "later.log");
    const read = readCriLog(f, { follow: true, tailLines: 0 });
    assert.equal(read.text, "");
    writeFileSync(f, rec("01", "stdout", "F", "hi"));
    assert.equal(read.more(false), "hi\n", "tail selects the first read only");
  });
});
