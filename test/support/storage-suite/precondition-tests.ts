/**
 * The shared suite's precondition edges: guards that name revision 0, a revision
 * from an earlier life of the key, or the key's own createRevision; and that a
 * refused write of any shape leaves the key and the global revision untouched.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { Backend } from "../../../src/storage/backend.js";
import {
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
} from "../../../src/storage/errors.js";
import { type OpenBackend, withBackend } from "./helpers.js";

/** A write that must be refused with `error`, taking no revision and changing nothing. */
interface Refusal {
  name: string;
  write: (b: Backend, revisions: { first: number; current: number }) => Promise<unknown>;
  error: new (...args: never[]) => Error;
}

const refusals: Refusal[] = [
  { name: "create of a live key", write: (b) => b.create("/a/x", "again"), error: KeyExistsError },
  {
    name: "update at an older revision",
    write: (b, r) => b.update("/a/x", "stale", r.first),
    error: RevisionMismatchError,
  },
  {
    name: "update at a future revision",
    write: (b, r) => b.update("/a/x", "future", r.current + 100),
    error: RevisionMismatchError,
  },
  {
    name: "update at revision 0",
    write: (b) => b.update("/a/x", "zero", 0),
    error: RevisionMismatchError,
  },
  {
    name: "delete at an older revision",
    write: (b, r) => b.delete("/a/x", r.first),
    error: RevisionMismatchError,
  },
  { name: "delete at revision 0", write: (b) => b.delete("/a/x", 0), error: RevisionMismatchError },
  {
    name: "update of a missing key",
    write: (b) => b.update("/a/y", "v", 1),
    error: KeyNotFoundError,
  },
  { name: "delete of a missing key", write: (b) => b.delete("/a/y"), error: KeyNotFoundError },
];

export function preconditionTests(open: OpenBackend): void {
  for (const refusal of refusals) {
    it(
      `refuses a ${refusal.name}, leaving the key and the revision as they were`,
      withBackend(open, async (b) => {
        const first = await b.create("/a/x", "one");
        const live = await b.update("/a/x", "two", first.modRevision);
        const revisions = { first: first.modRevision, current: live.modRevision };
        await assert.rejects(refusal.write(b, revisions), refusal.error);
        assert.deepEqual(await b.get("/a/x"), live);
        assert.equal(await b.get("/a/y"), undefined);
        assert.equal(await b.currentRevision(), live.modRevision);
        // The backend goes on writing with the next revision.
        const next = await b.update("/a/x", "three", live.modRevision);
        assert.ok(next.modRevision > live.modRevision);
      }),
    );
  }

  it(
    "refuses an update or delete at revision 0 of a missing key, creating nothing",
    withBackend(open, async (b) => {
      const start = await b.currentRevision();
      await assert.rejects(b.update("/a/x", "one", 0), KeyNotFoundError);
      await assert.rejects(b.delete("/a/x", 0), KeyNotFoundError);
      assert.equal(await b.get("/a/x"), undefined);
      assert.deepEqual((await b.list("/a/")).items, []);
      assert.equal(await b.currentRevision(), start);
    }),
  );

  it(
    "refuses a guard from the key's earlier life once it is re-created",
    withBackend(open, async (b) => {
      const old = await b.create("/a/x", "old");
      await b.delete("/a/x");
      const reborn = await b.create("/a/x", "new");
      for (const write of [
        () => b.update("/a/x", "stale", old.modRevision),
        () => b.delete("/a/x", old.modRevision),
      ]) {
        const error = await write().catch((e: unknown) => e);
        assert.ok(error instanceof RevisionMismatchError);
        assert.deepEqual(error.current, reborn);
      }
      assert.deepEqual(await b.get("/a/x"), reborn);
    }),
  );

  it(
    "guards on modRevision, not createRevision",
    withBackend(open, async (b) => {
      const created = await b.create("/a/x", "one");
      const updated = await b.update("/a/x", "two", created.modRevision);
      await assert.rejects(
        b.update("/a/x", "three", updated.createRevision),
        RevisionMismatchError,
      );
      const third = await b.update("/a/x", "three", updated.modRevision);
      assert.equal(third.createRevision, created.modRevision);
    }),
  );

  it(
    "gives an update that changes nothing a new revision and an event",
    withBackend(open, async (b) => {
      const created = await b.create("/a/x", "same");
      const again = await b.update("/a/x", "same", created.modRevision);
      assert.ok(again.modRevision > created.modRevision);
      assert.equal(await b.currentRevision(), again.modRevision);
      await assert.rejects(b.update("/a/x", "same", created.modRevision), RevisionMismatchError);
      const history = await b.list("/a/", { revision: created.modRevision });
      assert.deepEqual(history.items, [created]);
    }),
  );

  it(
    "stores an empty value and deletes it with its empty value",
    withBackend(open, async (b) => {
      const empty = await b.create("/a/empty", "");
      assert.equal(empty.value, "");
      assert.deepEqual(await b.get("/a/empty"), empty);
      assert.deepEqual((await b.list("/a/")).items, [empty]);
      const filled = await b.update("/a/empty", "x", empty.modRevision);
      const emptied = await b.update("/a/empty", "", filled.modRevision);
      const deleted = await b.delete("/a/empty");
      assert.equal(deleted.value, "");
      assert.equal(deleted.createRevision, empty.createRevision);
      assert.ok(deleted.modRevision > emptied.modRevision);
    }),
  );
}
