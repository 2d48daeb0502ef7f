/** The hearth image's file selection and keys: what goes in, and what rebuilds it. */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import {
  appFiles,
  appKey,
  CHECKOUT,
  filesDigest,
  isRuntimeModule,
  productionPackages,
  runtimeKey,
} from "./checkout-files.js";

const LOCK = JSON.stringify({
  lockfileVersion: 3,
  packages: {
    "": { name: "hearth", dependencies: { a: "^1" }, devDependencies: { t: "^5" } },
    "node_modules/a": { version: "1.0.0" },
    "node_modules/a/node_modules/b": { version: "2.0.0" },
    "node_modules/t": { version: "5.0.0", dev: true },
    "node_modules/t/node_modules/b": { version: "1.0.0", dev: true },
    "node_modules/@s/native-arm64": { version: "1.0.0", optional: true },
    "node_modules/@s/lint-arm64": { version: "1.0.0", dev: true, optional: true },
  },
});

describe("productionPackages", () => {
  it("lists the lock's packages not marked dev, nested ones too, sorted", () => {
    assert.deepEqual(productionPackages(LOCK), [
      { path: "node_modules/@s/native-arm64", optional: true },
      { path: "node_modules/a", optional: false },
      { path: "node_modules/a/node_modules/b", optional: false },
    ]);
  });

  it("refuses a lock without packages (v1) and a linked package", () => {
    assert.throws(() => productionPackages('{"lockfileVersion":1}'), /v1 has no "packages"/);
    const linked = JSON.stringify({ packages: { "node_modules/w": { link: true } } });
    assert.throws(() => productionPackages(linked), /node_modules\/w is a link/);
  });

  it("on this checkout's lock: the runtime dependencies, no dev tool", () => {
    const paths = productionPackages(readFileSync(join(CHECKOUT, "package-lock.json"), "utf8")).map(
      (p) => p.path,
    );
    for (const p of [
      "node_modules/better-sqlite3",
      "node_modules/@grpc/grpc-js",
      "node_modules/yaml",
    ])
      assert.ok(paths.includes(p), p);
    for (const p of ["node_modules/typescript", "node_modules/@biomejs/biome"])
      assert.ok(!paths.includes(p), p);
  });
});

describe("appFiles", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-checkout-files-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text = path) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it("refuses a checkout that has not been built", () => {
    assert.throws(() => appFiles(dir), /dist\/src is missing: build first/);
  });

  it("takes dist/src's modules, src/'s protos, config/ and package.json; no tests, maps, sources", () => {
    for (const f of [
      "package.json",
      "package-lock.json",
      "dist/src/main/hearth.js",
      "dist/src/main/hearth.js.map",
      "dist/src/main/hearth.test.js",
      "dist/src/main/hearth.test.js.map",
      "dist/src/api/kinds.json",
      "dist/test/e2e/pods.test.js",
      "dist/test/support/hearth-process.js",
      "src/main/hearth.ts",
      "src/node/cri/api.proto",
      "config/apps/redis/definition.yaml",
      "config/apps/etcd/definition.yaml",
      "README.md",
    ])
      write(f);
    assert.deepEqual(appFiles(dir), [
      "config/apps/etcd/definition.yaml",
      "config/apps/redis/definition.yaml",
      "dist/src/api/kinds.json",
      "dist/src/main/hearth.js",
      "package.json",
      "src/node/cri/api.proto",
    ]);
  });

  it("hashes paths, modes and contents: a rewrite of the same bytes keeps the digest", () => {
    const files = appFiles(dir);
    const before = filesDigest(dir, files);
    write("dist/src/main/hearth.js"); // tsc rewrites every output
    assert.equal(filesDigest(dir, files), before);
    write("dist/src/main/hearth.js", "changed");
    const changed = filesDigest(dir, files);
    assert.notEqual(changed, before);
    chmodSync(join(dir, "dist/src/main/hearth.js"), 0o755);
    assert.notEqual(filesDigest(dir, files), changed);
    assert.notEqual(filesDigest(dir, files.slice(1)), filesDigest(dir, files));
  });

  it("keeps compiled modules only", () => {
    assert.ok(isRuntimeModule("dist/src/a/b.js"));
    assert.ok(!isRuntimeModule("dist/src/a/b.test.js"));
    assert.ok(!isRuntimeModule("dist/src/a/b.js.map"));
  });
});

describe("hearth image keys", () => {
  const inputs = { baseKey: "base", node: "v20.20.2", arch: "x64", lockText: LOCK };

  it("the runtime part changes with the base, node, arch or lock, and only with them", () => {
    const key = runtimeKey(inputs);
    assert.equal(runtimeKey({ ...inputs }), key);
    for (const change of [
      { baseKey: "other" },
      { node: "v20.20.3" },
      { arch: "arm64" },
      { lockText: `${LOCK}\n` },
    ])
      assert.notEqual(runtimeKey({ ...inputs, ...change }), key, JSON.stringify(change));
  });

  it("the image changes with its runtime part, its spec or its files", () => {
    const key = appKey("r", { config: {} }, "files");
    assert.equal(appKey("r", { config: {} }, "files"), key);
    assert.notEqual(appKey("r2", { config: {} }, "files"), key);
    assert.notEqual(appKey("r", { config: { cmd: ["x"] } }, "files"), key);
    assert.notEqual(appKey("r", { config: {} }, "files2"), key);
  });
});
