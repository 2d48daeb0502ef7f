/**
 * Runs the shared backend suite against the SQLite backend, on files and in
 * memory, plus what only a file can show: state and revisions surviving a
 * reopen, many concurrent writers, and the speed of a large LIST.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runBackendSuite } from "../../../test/support/storage-suite/backend-suite.js";
import type { KeyValue } from "../backend.js";
import { CompactedError } from "../errors.js";
import { openDatabase } from "./schema.js";
import { openSqliteBackend, type SqliteBackend } from "./sqlite-backend.js";

let dir = "";
let files = 0;
const nextFile = () => join(dir, `db-${++files}.sqlite`);

before(() => {
  dir = mkdtempSync(join(tmpdir(), "hearth-sqlite-"));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

runBackendSuite("sqlite file", () => openSqliteBackend(nextFile()));
runBackendSuite("sqlite :memory:", () => openSqliteBackend(":memory:"));

/** Runs `body` with a backend on `path`, closing it afterwards. */
async function using<T>(path: string, body: (b: SqliteBackend) => Promise<T>): Promise<T> {
  const backend = await openSqliteBackend(path);
  try {
    return await body(backend);
  } finally {
    await backend.close();
  }
}

describe("sqlite backend on a file", () => {
  it("opens the file in WAL mode", () => {
    const db = openDatabase(nextFile());
    try {
      assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
      assert.equal(db.pragma("synchronous", { simple: true }), 1);
      assert.equal(db.pragma("busy_timeout", { simple: true }), 30000);
    } finally {
      db.close();
    }
  });

  it("keeps objects, revisions and the compacted revision across a reopen", async () => {
    const path = nextFile();
    const state = await using(path, async (b) => {
      const one = await b.create("/a/1", "one");
      await b.update("/a/1", "one'", one.modRevision);
      await b.create("/a/2", "two");
      const compacted = await b.currentRevision();
      await b.compact(compacted);
      const three = await b.create("/a/3", "three");
      return { items: (await b.list("/a/")).items, compacted, current: three.modRevision };
    });
    await using(path, async (b) => {
      assert.deepEqual((await b.list("/a/")).items, state.items);
      assert.equal(await b.currentRevision(), state.current);
      assert.equal(await b.compactedRevision(), state.compacted);
      await assert.rejects(b.list("/a/", { revision: state.compacted - 1 }), CompactedError);
      const four = await b.create("/a/4", "four");
      assert.equal(four.modRevision, state.current + 1);
    });
  });

  it("keeps revisions increasing after compacting away the newest rows", async () => {
    const path = nextFile();
    const last = await using(path, async (b) => {
      for (let i = 0; i < 10; i++) await b.create(`/a/${i}`, "x");
      for (let i = 0; i < 10; i++) await b.delete(`/a/${i}`);
      const current = await b.currentRevision();
      await b.compact(current);
      assert.deepEqual((await b.list("")).items, []);
      return current;
    });
    await using(path, async (b) => {
      assert.equal(await b.currentRevision(), last);
      const again = await b.create("/a/0", "again");
      assert.equal(again.modRevision, last + 1);
      assert.equal(again.createRevision, last + 1);
    });
  });

  it("serialises many concurrent writers without 'database is locked'", async () => {
    await using(nextFile(), async (b) => {
      const created = await Promise.all(
        Array.from({ length: 500 }, (_, i) => b.create(`/c/${i}`, `v${i}`)),
      );
      const updated = await Promise.all(
        created.map((kv) => b.update(kv.key, `${kv.value}'`, kv.modRevision)),
      );
      const revisions = [...created, ...updated].map((kv) => kv.modRevision);
      assert.equal(new Set(revisions).size, 1000);
      assert.equal(await b.currentRevision(), Math.max(...revisions));
      assert.equal(await b.count("/c/"), 500);
      // Racing updates at one revision: exactly one wins.
      const target = updated[0]!;
      const race = await Promise.allSettled(
        Array.from({ length: 20 }, () => b.update(target.key, "race", target.modRevision)),
      );
      assert.equal(race.filter((r) => r.status === "fulfilled").length, 1);
    });
  });

  it("compacts a long history in batches and keeps list-at-revision exact", async () => {
    await using(nextFile(), async (b) => {
      let kv: KeyValue = await b.create("/h/x", "0");
      for (let i = 1; i <= 2500; i++) kv = await b.update("/h/x", String(i), kv.modRevision);
      for (let i = 0; i < 300; i++) await b.delete((await b.create(`/h/t/${i}`, "t")).key);
      const middle = kv.modRevision;
      await b.compact(middle + 150);
      assert.deepEqual((await b.list("/h/x", { revision: middle + 150 })).items, [kv]);
      assert.equal((await b.list("/h/t/", { revision: middle + 151 })).items.length, 1);
      assert.equal(await b.count("/h/"), 1);
    });
  });

  it("lists 10,000 objects of 1 KB quickly", async (t) => {
    await using(nextFile(), async (b) => {
      const value = JSON.stringify({ data: "x".repeat(1000) });
      const writes: Promise<KeyValue>[] = [];
      for (let i = 0; i < 10_000; i++) {
        writes.push(b.create(`/registry/configmaps/ns/cm-${String(i).padStart(5, "0")}`, value));
      }
      await Promise.all(writes);
      await b.create("/registry/secrets/ns/s", value);
      const times: number[] = [];
      for (let round = 0; round < 5; round++) {
        const start = performance.now();
        const result = await b.list("/registry/configmaps/");
        times.push(performance.now() - start);
        assert.equal(result.items.length, 10_000);
      }
      const best = Math.min(...times);
      t.diagnostic(
        `LIST of 10,000 1 KB objects: ${times.map((ms) => ms.toFixed(1)).join(", ")} ms`,
      );
      // Generous bound: it guards against a quadratic plan, not against a busy machine.
      assert.ok(best < 1000, `best LIST took ${best.toFixed(1)} ms`);
    });
  });
});
