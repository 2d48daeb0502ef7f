/** The volume pool: directories, provisional markers, the sweep, and serialised operations. */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { VolumePool } from "./volume-pool.js";

describe("VolumePool", () => {
  let root: string;
  let pool: VolumePool;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "hearth-pool-"));
    pool = new VolumePool(join(root, "volumes"), 10n * 1024n ** 3n);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("creates a directory per volume, provisional until committed", async () => {
    const path = await pool.create("pvc-a");
    assert.equal(path, join(root, "volumes", "pvc-a"));
    assert.ok(existsSync(path));
    assert.ok(existsSync(join(root, "volumes", ".pvc-a.provisioning")));
    await pool.create("pvc-a"); // idempotent
    await pool.commit("pvc-a");
    assert.deepEqual(readdirSync(join(root, "volumes")), ["pvc-a"]);
    assert.deepEqual(await pool.list(), ["pvc-a"]);
  });

  it("removes a directory with its content, and a missing one without complaint", async () => {
    await pool.create("pvc-b");
    writeFileSync(join(pool.path("pvc-b"), "data"), "x");
    mkdirSync(join(pool.path("pvc-b"), "sub"));
    await pool.remove("pvc-b");
    assert.equal(pool.exists("pvc-b"), false);
    assert.equal(existsSync(join(root, "volumes", ".pvc-b.provisioning")), false);
    await pool.remove("pvc-b");
  });

  it("sweeps provisional volumes no PV names, commits the others, keeps unmarked ones", async () => {
    await pool.create("pvc-crashed");
    await pool.create("pvc-made");
    mkdirSync(pool.path("pvc-retained"));
    const removed = await pool.locked(() => pool.sweep(new Set(["pvc-a", "pvc-made"])));
    assert.deepEqual(removed, ["pvc-crashed"]);
    assert.deepEqual((await pool.list()).sort(), ["pvc-a", "pvc-made", "pvc-retained"]);
    assert.deepEqual(
      readdirSync(join(root, "volumes")).filter((n) => n.startsWith(".")),
      [],
    );
  });

  it("refuses names that would leave the pool", () => {
    for (const bad of ["../x", "a/b", "", ".hidden", "A", "x..y"])
      assert.throws(() => pool.path(bad), /invalid volume name/);
  });

  it("runs locked operations one at a time, even when one fails", async () => {
    const order: string[] = [];
    const slow = pool.locked(async () => {
      order.push("a-start");
      await new Promise((r) => setTimeout(r, 20));
      order.push("a-end");
      throw new Error("boom");
    });
    const next = pool.locked(async () => {
      order.push("b");
      return 7;
    });
    await assert.rejects(slow, /boom/);
    assert.equal(await next, 7);
    assert.deepEqual(order, ["a-start", "a-end", "b"]);
  });
});
