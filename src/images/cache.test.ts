/** Build records: an image is current only for its key and while the layout's tag names its digest. */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  type BuildRecord,
  builtSpecs,
  currentRecord,
  imageCache,
  layerBytes,
  layoutDigest,
  readRecord,
  writeRecord,
} from "./cache.js";
import { listsFingerprint, listsKey } from "./cache-key.js";
import { findSpec } from "./specs.js";

const dir = mkdtempSync(join(tmpdir(), "hearth-image-cache-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const cache = imageCache(dir);

function writeIndex(tags: Record<string, string>): void {
  mkdirSync(cache.layout, { recursive: true });
  const manifests = Object.entries(tags).map(([ref, digest]) => ({
    mediaType: "application/vnd.oci.image.manifest.v1+json",
    digest,
    size: 1,
    annotations: { "org.opencontainers.image.ref.name": ref },
  }));
  writeFileSync(join(cache.layout, "index.json"), JSON.stringify({ schemaVersion: 2, manifests }));
}

const record: BuildRecord = {
  ref: "etcd-3.4",
  key: "k1",
  digest: "sha256:aaa",
  versions: [{ name: "etcd-server", version: "3.4.23-4+b4" }],
  bytes: 3,
  seconds: 1,
  builtAt: "2026-01-01T00:00:00Z",
};

describe("build records", () => {
  it("uses $HEARTH_IMAGE_CACHE's layout when given a dir, the default otherwise", () => {
    assert.equal(cache.layout, join(dir, "oci"));
    const saved = process.env.HEARTH_IMAGE_CACHE;
    delete process.env.HEARTH_IMAGE_CACHE;
    assert.equal(imageCache().dir, "/var/cache/hearth/images");
    process.env.HEARTH_IMAGE_CACHE = "/elsewhere";
    assert.equal(imageCache().dir, "/elsewhere");
    if (saved === undefined) delete process.env.HEARTH_IMAGE_CACHE;
    else process.env.HEARTH_IMAGE_CACHE = saved;
  });

  it("has nothing current before a record or a layout exists", () => {
    assert.equal(readRecord(cache, "etcd-3.4"), undefined);
    assert.equal(layoutDigest(cache.layout, "etcd-3.4"), undefined);
    writeRecord(cache, record);
    assert.equal(currentRecord(cache, "etcd-3.4", "k1"), undefined, "no layout yet");
  });

  it("is current for its key while the tag names its digest", () => {
    writeIndex({ "etcd-3.4": "sha256:aaa", "pause-3.9": "sha256:bbb" });
    assert.deepEqual(currentRecord(cache, "etcd-3.4", "k1"), record);
    assert.equal(currentRecord(cache, "etcd-3.4", "k2"), undefined, "another key");
    writeIndex({ "etcd-3.4": "sha256:ccc" });
    assert.equal(currentRecord(cache, "etcd-3.4", "k1"), undefined, "the tag moved");
    writeIndex({});
    assert.equal(currentRecord(cache, "etcd-3.4", "k1"), undefined, "the tag is gone");
  });

  it("lists the specs whose tag the layout holds", () => {
    const specs = ["etcd", "pause", "nginx"].map((n) => findSpec(n)!);
    writeIndex({ "etcd-3.4": "sha256:aaa", "nginx-1.22": "sha256:bbb" });
    assert.deepEqual(
      builtSpecs(cache, specs).map((s) => s.name),
      ["etcd", "nginx"],
    );
    writeIndex({});
    assert.deepEqual(builtSpecs(cache, specs), []);
  });

  it("treats a torn record as no record", () => {
    writeFileSync(join(cache.builds, "etcd-3.4.json"), "{");
    assert.equal(readRecord(cache, "etcd-3.4"), undefined);
  });

  it("sums the layer sizes of a manifest", () => {
    mkdirSync(join(cache.layout, "blobs/sha256"), { recursive: true });
    writeFileSync(
      join(cache.layout, "blobs/sha256/ddd"),
      JSON.stringify({ layers: [{ size: 5 }, { size: 7 }] }),
    );
    assert.equal(layerBytes(cache.layout, "sha256:ddd"), 12);
  });
});

describe("listsKey", () => {
  const spec = findSpec("redis")!;
  const lists = listsFingerprint(
    new Map([
      ["a_InRelease", "x"],
      ["b_InRelease", "y"],
    ]),
  );

  it("does not depend on the order the Release files are read in", () => {
    assert.equal(
      listsFingerprint(
        new Map([
          ["b_InRelease", "y"],
          ["a_InRelease", "x"],
        ]),
      ),
      lists,
    );
  });

  it("changes when a Release file, the base, the spec or the script changes", () => {
    const key = listsKey(spec, "base", lists, "script");
    const others = [
      listsKey(
        spec,
        "base",
        listsFingerprint(
          new Map([
            ["a_InRelease", "x2"],
            ["b_InRelease", "y"],
          ]),
        ),
        "script",
      ),
      listsKey(spec, "base2", lists, "script"),
      listsKey({ ...spec, setup: [] }, "base", lists, "script"),
      listsKey(spec, "base", lists, "script2"),
    ];
    for (const k of others) assert.notEqual(k, key);
  });
});
