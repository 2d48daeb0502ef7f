import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readIndex, sampleLog, timeOf } from "./log-index.js";
import { readFrom, readLog, readRawLog } from "./log-reader.js";

describe("container logs", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-logs-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("serves the whole log, its tail and a byte limit", () => {
    const file = join(dir, "0.log");
    writeFileSync(file, "one\ntwo\nthree\npartial");
    assert.equal(readLog(file, {}).text, "one\ntwo\nthree\npartial");
    assert.equal(readLog(file, { tailLines: 2 }).text, "three\npartial");
    assert.equal(readLog(file, { tailLines: 0 }).text, "");
    assert.equal(readLog(file, { limitBytes: 5 }).text, "one\nt");
    assert.deepEqual(readLog(join(dir, "missing.log"), {}), { text: "", offset: 0 });
  });

  it("stamps lines with the time the agent saw them and filters by age", () => {
    const file = join(dir, "1.log");
    writeFileSync(file, "early\n");
    let size = sampleLog(file, 0, new Date("2025-01-01T00:00:00.000Z"));
    appendFileSync(file, "late\n");
    size = sampleLog(file, size, new Date("2025-01-01T00:01:00.000Z"));
    assert.equal(sampleLog(file, size), size, "no sample when nothing grew");
    assert.equal(readIndex(file).length, 2);
    const now = new Date("2025-01-01T00:01:30.000Z");
    assert.equal(
      readLog(file, { timestamps: true }, now).text,
      "2025-01-01T00:00:00.000Z early\n2025-01-01T00:01:00.000Z late\n",
    );
    assert.equal(readLog(file, { sinceSeconds: 60 }, now).text, "late\n");
    const sinceTime = new Date("2025-01-01T00:00:30.000Z");
    assert.equal(readLog(file, { sinceTime }, now).text, "late\n");
    assert.equal(readLog(file, { sinceSeconds: 120, sinceTime }, now).text, "late\n");
    assert.equal(timeOf(readIndex(file), 999, "later"), "later");
  });

  it("follows from an offset", () => {
    const file = join(dir, "2.log");
    writeFileSync(file, "a\n");
    const first = readLog(file, {});
    appendFileSync(file, "b\nc\n");
    const next = readFrom(file, first.offset, {});
    assert.equal(next.text, "b\nc\n");
    assert.deepEqual(readFrom(file, next.offset, {}), { text: "", offset: next.offset });
  });

  it("reads on where the last read ended, without tail or limit", () => {
    const file = join(dir, "3.log");
    writeFileSync(file, "a\nb\n");
    const read = readRawLog(file, { tailLines: 1, limitBytes: 1, follow: true });
    assert.equal(read.text, "b");
    appendFileSync(file, "long line\nhalf");
    assert.equal(read.more(false), "long line\nhalf", "a raw log has no record to wait for");
    assert.equal(read.more(true), "");
  });
});
