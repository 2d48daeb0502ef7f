import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { expandGlob, HEARTH_ROOT, ImageTable, imageNames } from "./image-table.js";

describe("imageNames", () => {
  it("drops tag and digest and also matches the last path segment", () => {
    assert.deepEqual(imageNames("etcd:3.5"), ["etcd"]);
    assert.deepEqual(imageNames("quay.io/coreos/etcd:v3.5@sha256:ab"), [
      "quay.io/coreos/etcd",
      "etcd",
    ]);
    assert.deepEqual(imageNames("localhost:5000/redis"), ["localhost:5000/redis", "redis"]);
  });
});

describe("ImageTable", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-images-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("loads the checked-in table and resolves etcd and hearth", () => {
    const t = ImageTable.load();
    const etcd = t.lookup("etcd:3.5.16");
    assert.ok(etcd.ok);
    assert.deepEqual(etcd.image.entrypoint, ["/usr/bin/etcd"]);
    const hearth = t.lookup("hearth");
    assert.ok(hearth.ok);
    assert.equal(hearth.image.entrypoint[0], process.execPath);
    assert.match(hearth.image.entrypoint[1]!, /dist\/src\/main\/hearth\.js$/);
    // The checkout, and its packages too when node_modules links outside it.
    const modules = realpathSync(join(HEARTH_ROOT, "node_modules"));
    const outside = !modules.startsWith(`${HEARTH_ROOT}/`);
    assert.deepEqual(hearth.image.binds, outside ? [HEARTH_ROOT, modules] : [HEARTH_ROOT]);
  });

  it("drops a bind that another bind contains", () => {
    const t = new ImageTable({
      sh: { entrypoint: ["/bin/sh"], binds: ["/srv/a/x", "/srv/a", "/srv/ab", "/srv/a"] },
    });
    const sh = t.lookup("sh");
    assert.ok(sh.ok);
    assert.deepEqual(sh.image.binds, ["/srv/a", "/srv/ab"]);
  });

  it("refuses unknown images and missing executables with a clear message", () => {
    const t = new ImageTable({
      gone: { entrypoint: ["/nonexistent/bin/x"] },
      sh: { entrypoint: ["/bin/sh"] },
    });
    const unknown = t.lookup("nginx:1.27");
    assert.equal(unknown.ok, false);
    assert.match(
      !unknown.ok ? unknown.message : "",
      /"nginx:1.27" is not in this node's image table \(known: gone, sh\)/,
    );
    const gone = t.lookup("gone");
    assert.match(
      !gone.ok ? gone.message : "",
      /maps to \/nonexistent\/bin\/x, which is not installed/,
    );
  });

  it("expands a * segment to the highest version present", () => {
    for (const v of ["9", "15", "16"]) {
      mkdirSync(join(dir, "pg", v, "bin"), { recursive: true });
      writeFileSync(join(dir, "pg", v, "bin", "postgres"), "");
    }
    assert.equal(expandGlob(join(dir, "pg/*/bin/postgres")), join(dir, "pg/16/bin/postgres"));
    assert.equal(expandGlob(join(dir, "nope/*/bin")), undefined);
  });

  it("reports a table without images", () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, "{}");
    assert.throws(() => ImageTable.load(file), /has no "images" object/);
  });
});
