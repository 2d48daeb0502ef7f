/**
 * The base image made on an empty cache, as on a fresh machine (umoci on a
 * tiny root: the first build must not need a record of itself), and left
 * alone when current.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { BASE_REF, ensureBaseImage } from "./builder-root.js";
import { imageCache, layoutDigest, readRecord } from "./cache.js";

const umoci = (() => {
  try {
    execFileSync("umoci", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("ensureBaseImage", { skip: umoci ? false : "umoci is not installed" }, () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-base-image-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const cache = imageCache(dir);
  mkdirSync(join(cache.root, "etc"), { recursive: true });
  writeFileSync(join(cache.root, "etc", "os-release"), "ID=test\n");
  writeFileSync(join(cache.root, "etc", "resolv.conf"), "nameserver 192.0.2.1\n");
  const root = { root: cache.root, key: "k1", lists: "l1" };

  it("builds the base on an empty cache and records it", async () => {
    const lines: string[] = [];
    await ensureBaseImage(cache, root, (l) => lines.push(l));
    const digest = layoutDigest(cache.layout, BASE_REF);
    assert.ok(digest, "the layout has the base tag");
    assert.equal(readRecord(cache, BASE_REF)?.digest, digest);
    assert.equal(readRecord(cache, BASE_REF)?.key, "k1");
    assert.deepEqual(lines, ["base image from the builder root"]);
  });

  it("does nothing when the base is current for the key", async () => {
    const lines: string[] = [];
    await ensureBaseImage(cache, root, (l) => lines.push(l));
    assert.deepEqual(lines, []);
  });
});
