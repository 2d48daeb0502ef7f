import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readAfter, sinceOf } from "./log-reader.js";

describe("log read helpers", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-logs-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("takes the later of sinceSeconds and sinceTime, as kubelet does", () => {
    const now = new Date("2025-01-01T00:01:30.000Z");
    const sinceTime = new Date("2025-01-01T00:00:30.000Z");
    assert.equal(sinceOf({}, now), undefined);
    assert.equal(sinceOf({ sinceSeconds: 60 }, now), Date.parse("2025-01-01T00:00:30.000Z"));
    assert.equal(sinceOf({ sinceTime }, now), sinceTime.getTime());
    assert.equal(sinceOf({ sinceSeconds: 10, sinceTime }, now), now.getTime() - 10_000);
    assert.equal(sinceOf({ sinceSeconds: 120, sinceTime }, now), sinceTime.getTime());
  });

  it("reads the bytes appended after an offset", () => {
    const file = join(dir, "0.log");
    writeFileSync(file, "a\n");
    assert.equal(readAfter(file, 0).toString(), "a\n");
    appendFileSync(file, "b\nc");
    assert.equal(readAfter(file, 2).toString(), "b\nc");
    assert.equal(readAfter(file, 5).length, 0);
    assert.equal(readAfter(join(dir, "missing.log"), 0).length, 0);
  });
});
