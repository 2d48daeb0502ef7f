/**
 * buildCheckoutImage with the real umoci on a temp cache: a tiny base (one
 * empty layer), a small checkout and a stand-in for the node binary, so it
 * runs in seconds. Layers, config, caching and what a change rebuilds.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BASE_REF, type BuilderRoot, ensureLayout } from "./builder-root.js";
import { type ImageCache, imageCache, layoutDigest } from "./cache.js";
import { buildCheckoutImage } from "./checkout-image.js";
import { run } from "./exec.js";
import { findSpec } from "./specs.js";

const spec = findSpec("hearth")!;
const umoci = (...args: string[]) => execFileSync("umoci", args, { encoding: "utf8" });

/** The manifest and config of a layout tag. */
function manifestOf(cache: ImageCache, ref: string) {
  const blob = (digest: string) =>
    JSON.parse(readFileSync(join(cache.layout, "blobs", ...digest.split(":")), "utf8"));
  const manifest = blob(layoutDigest(cache.layout, ref)!) as {
    config: { digest: string };
    layers: { digest: string }[];
  };
  const config = blob(manifest.config.digest) as {
    config: { Entrypoint?: string[]; Cmd?: string[]; Labels?: Record<string, string> };
  };
  return { layers: manifest.layers.map((l) => l.digest), config: config.config };
}

describe("buildCheckoutImage", {
  skip: process.getuid?.() !== 0 ? "needs root (umoci insert keeps owners)" : false,
}, () => {
  let dir: string;
  let cache: ImageCache;
  let checkout: string;
  let node: { path: string; version: string };
  const root: BuilderRoot = { root: "/nonexistent", key: "base-key", lists: "" };
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(checkout, path)), { recursive: true });
    writeFileSync(join(checkout, path), text);
  };
  const build = () => buildCheckoutImage(spec, root, cache, { checkout, node });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "hearth-checkout-image-"));
    cache = imageCache(join(dir, "cache"));
    checkout = join(dir, "checkout");
    node = { path: join(dir, "node"), version: "v20.0.0-test" };
    writeFileSync(node.path, "#!/bin/sh\necho node\n");
    write("package.json", '{"name":"hearth","version":"0.1.0"}');
    write(
      "package-lock.json",
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          "": {},
          "node_modules/a": { version: "1.0.0" },
          "node_modules/a/node_modules/b": { version: "1.0.0" },
          "node_modules/t": { version: "1.0.0", dev: true },
          "node_modules/gone": { version: "1.0.0", optional: true },
        },
      }),
    );
    for (const f of ["a/index.js", "a/node_modules/b/index.js", "t/index.js", ".bin/t"])
      write(`node_modules/${f}`, f);
    write("dist/src/main/hearth.js", "console.log('hearth')");
    write("dist/src/main/hearth.test.js", "test");
    write("dist/test/e2e/x.test.js", "test");
    write("config/apps/x/definition.yaml", "{}");
    write("src/node/cri/api.proto", 'syntax = "proto3";');
    const empty = join(dir, "empty");
    mkdirSync(empty);
    mkdirSync(cache.work, { recursive: true });
    await ensureLayout(cache);
    umoci("new", "--image", `${cache.layout}:${BASE_REF}`);
    umoci("insert", "--image", `${cache.layout}:${BASE_REF}`, empty, "/");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("layers the runtime part and the app files on the base, with the spec's entrypoint", async () => {
    const first = await build();
    assert.equal(first.cached, false);
    const base = manifestOf(cache, BASE_REF);
    const image = manifestOf(cache, "hearth-dev");
    assert.deepEqual(image.layers.slice(0, 2), [
      ...base.layers,
      ...manifestOf(cache, "hearth-runtime").layers.slice(1),
    ]);
    assert.equal(image.layers.length, 3);
    assert.deepEqual(image.config.Entrypoint, spec.config.entrypoint);
    assert.equal(image.config.Cmd, undefined);
    assert.equal(image.config.Labels?.["io.hearth.image.key"], first.record.key);
    assert.equal(layoutDigest(cache.layout, "hearth-dev-building"), undefined);

    const bundle = join(dir, "bundle");
    await run(["umoci", "unpack", "--image", `${cache.layout}:hearth-dev`, bundle]);
    const fs = join(bundle, "rootfs");
    const present = (p: string) => existsSync(join(fs, p));
    assert.equal(statSync(join(fs, "usr/local/bin/node")).mode & 0o777, 0o755);
    for (const p of [
      "opt/hearth/dist/src/main/hearth.js",
      "opt/hearth/config/apps/x/definition.yaml",
      "opt/hearth/package.json",
      "opt/hearth/src/node/cri/api.proto",
      "opt/hearth/node_modules/a/index.js",
      "opt/hearth/node_modules/a/node_modules/b/index.js",
    ])
      assert.ok(present(p), p);
    for (const p of [
      "opt/hearth/dist/src/main/hearth.test.js",
      "opt/hearth/dist/test",
      "opt/hearth/node_modules/t",
      "opt/hearth/node_modules/.bin",
      "opt/hearth/package-lock.json",
    ])
      assert.ok(!present(p), p);
    rmSync(bundle, { recursive: true, force: true });
  });

  it("is cached while nothing changes, tsc's rewrite of the same output included", async () => {
    const digest = layoutDigest(cache.layout, "hearth-dev");
    write("dist/src/main/hearth.js", "console.log('hearth')");
    const again = await build();
    assert.equal(again.cached, true);
    assert.equal(again.record.digest, digest);
  });

  it("rebuilds only the app layer when the code changes, the runtime part when the lock does", async () => {
    const before = manifestOf(cache, "hearth-dev").layers;
    write("dist/src/main/hearth.js", "console.log('hearth 2')");
    assert.equal((await build()).cached, false);
    const code = manifestOf(cache, "hearth-dev").layers;
    assert.deepEqual(code.slice(0, 2), before.slice(0, 2));
    assert.notEqual(code[2], before[2]);

    write("node_modules/a/index.js", "a 2");
    const lock = JSON.parse(readFileSync(join(checkout, "package-lock.json"), "utf8"));
    lock.packages["node_modules/a"].version = "1.0.1";
    write("package-lock.json", JSON.stringify(lock));
    assert.equal((await build()).cached, false);
    assert.notEqual(manifestOf(cache, "hearth-dev").layers[1], code[1]);
  });
});
