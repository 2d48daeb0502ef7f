/**
 * The shared suite's single-key cases: create, get, update and delete with their
 * preconditions, and how writes move the global revision.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import {
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
} from "../../../src/storage/errors.js";
import { type OpenBackend, withBackend } from "./helpers.js";

export function crudTests(open: OpenBackend): void {
  it(
    "creates a key and reads it back",
    withBackend(open, async (b) => {
      const kv = await b.create("/a/x", "one");
      assert.equal(kv.key, "/a/x");
      assert.equal(kv.value, "one");
      assert.ok(kv.modRevision > 0);
      assert.equal(kv.createRevision, kv.modRevision);
      assert.deepEqual(await b.get("/a/x"), kv);
      assert.equal(await b.get("/a/y"), undefined);
      assert.equal(await b.currentRevision(), kv.modRevision);
    }),
  );

  it(
    "refuses to create an existing key",
    withBackend(open, async (b) => {
      const kv = await b.create("/a/x", "one");
      await assert.rejects(b.create("/a/x", "two"), KeyExistsError);
      assert.deepEqual(await b.get("/a/x"), kv);
      assert.equal(await b.currentRevision(), kv.modRevision);
    }),
  );

  it(
    "updates at the right revision and keeps createRevision",
    withBackend(open, async (b) => {
      const created = await b.create("/a/x", "one");
      const first = await b.update("/a/x", "two", created.modRevision);
      assert.equal(first.value, "two");
      assert.ok(first.modRevision > created.modRevision);
      assert.equal(first.createRevision, created.createRevision);
      const second = await b.update("/a/x", "three", first.modRevision);
      assert.equal(second.createRevision, created.createRevision);
      assert.deepEqual(await b.get("/a/x"), second);
    }),
  );

  it(
    "refuses an update at a stale revision, carrying the current value",
    withBackend(open, async (b) => {
      const created = await b.create("/a/x", "one");
      const current = await b.update("/a/x", "two", created.modRevision);
      const error = await b.update("/a/x", "three", created.modRevision).catch((e: unknown) => e);
      assert.ok(error instanceof RevisionMismatchError);
      assert.equal(error.key, "/a/x");
      assert.deepEqual(error.current, current);
      assert.deepEqual(await b.get("/a/x"), current);
    }),
  );

  it(
    "refuses to update a missing key",
    withBackend(open, async (b) => {
      await assert.rejects(b.update("/a/x", "one", 1), KeyNotFoundError);
      const kv = await b.create("/a/x", "one");
      await b.delete("/a/x");
      await assert.rejects(b.update("/a/x", "two", kv.modRevision), KeyNotFoundError);
    }),
  );

  it(
    "deletes a key, returning its last state at the deletion's revision",
    withBackend(open, async (b) => {
      const created = await b.create("/a/x", "one");
      const updated = await b.update("/a/x", "two", created.modRevision);
      const deleted = await b.delete("/a/x");
      assert.equal(deleted.key, "/a/x");
      assert.equal(deleted.value, "two");
      assert.equal(deleted.createRevision, created.createRevision);
      assert.ok(deleted.modRevision > updated.modRevision);
      assert.equal(await b.currentRevision(), deleted.modRevision);
      assert.equal(await b.get("/a/x"), undefined);
    }),
  );

  it(
    "deletes only at the expected revision when one is given",
    withBackend(open, async (b) => {
      const created = await b.create("/a/x", "one");
      const current = await b.update("/a/x", "two", created.modRevision);
      const error = await b.delete("/a/x", created.modRevision).catch((e: unknown) => e);
      assert.ok(error instanceof RevisionMismatchError);
      assert.deepEqual(error.current, current);
      assert.deepEqual(await b.get("/a/x"), current);
      const deleted = await b.delete("/a/x", current.modRevision);
      assert.equal(deleted.value, "two");
      assert.equal(await b.get("/a/x"), undefined);
    }),
  );

  it(
    "refuses to delete a missing key",
    withBackend(open, async (b) => {
      await assert.rejects(b.delete("/a/x"), KeyNotFoundError);
      await assert.rejects(b.delete("/a/x", 1), KeyNotFoundError);
      await b.create("/a/x", "one");
      await b.delete("/a/x");
      await assert.rejects(b.delete("/a/x"), KeyNotFoundError);
    }),
  );

  it(
    "gives every write the next global revision, across keys",
    withBackend(open, async (b) => {
      // Not necessarily 0: etcd starts at 1, and a backend may share its store under a prefix.
      const start = await b.currentRevision();
      const a = await b.create("/a/1", "a");
      assert.ok(a.modRevision > start);
      const c = await b.create("/b/1", "c");
      const a2 = await b.update("/a/1", "a2", a.modRevision);
      const gone = await b.delete("/b/1");
      const revisions = [a, c, a2, gone].map((kv) => kv.modRevision);
      for (let i = 1; i < revisions.length; i++) assert.ok(revisions[i]! > revisions[i - 1]!);
      assert.equal(await b.currentRevision(), gone.modRevision);
      // A refused write takes no revision.
      await assert.rejects(b.create("/a/1", "again"), KeyExistsError);
      assert.equal(await b.currentRevision(), gone.modRevision);
    }),
  );

  it(
    "re-creates a deleted key with a new createRevision",
    withBackend(open, async (b) => {
      const first = await b.create("/a/x", "one");
      await b.delete("/a/x");
      const second = await b.create("/a/x", "two");
      assert.ok(second.createRevision > first.createRevision);
      assert.equal(second.createRevision, second.modRevision);
      const updated = await b.update("/a/x", "three", second.modRevision);
      assert.equal(updated.createRevision, second.createRevision);
    }),
  );

  it(
    "stores keys and values verbatim",
    withBackend(open, async (b) => {
      const value = JSON.stringify({ text: "naïve 🚀 \u0000 'quote' \"dq\"" });
      for (const key of ["/a/100%", "/a/x_y", "/a/ünï/🚀", "/a/with space"]) {
        await b.create(key, value);
        assert.equal((await b.get(key))?.value, value);
      }
      assert.equal(await b.get("/a/x%y"), undefined);
    }),
  );
}
