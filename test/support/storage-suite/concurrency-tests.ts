/**
 * The shared suite's races: writers that start together on one key (exactly one
 * wins, the rest get the typed refusal naming the winner's state) and many writers
 * on many keys (every write gets its own revision, and a watch sees them all once,
 * in revision order).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import type { KeyValue } from "../../../src/storage/backend.js";
import {
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
} from "../../../src/storage/errors.js";
import { type OpenBackend, Recorder, withBackend } from "./helpers.js";

const RACERS = 12;

/** Starts `count` writes at once; returns the one winner and the refusals. */
async function race<T>(
  count: number,
  write: (i: number) => Promise<T>,
): Promise<{ winner: T; index: number; refusals: unknown[] }> {
  const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => write(i)));
  const won = results.flatMap((r, i) => (r.status === "fulfilled" ? [{ value: r.value, i }] : []));
  assert.equal(won.length, 1, `exactly one of ${count} racing writes wins, not ${won.length}`);
  const refusals = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
  return { winner: won[0]!.value, index: won[0]!.i, refusals };
}

export function concurrencyTests(open: OpenBackend): void {
  it(
    "lets one of many racing creates of a key win",
    withBackend(open, async (b) => {
      const { winner, index, refusals } = await race(RACERS, (i) => b.create("/a/x", `w${i}`));
      assert.equal(winner.value, `w${index}`);
      for (const e of refusals) assert.ok(e instanceof KeyExistsError, String(e));
      assert.deepEqual(await b.get("/a/x"), winner);
      assert.equal(await b.currentRevision(), winner.modRevision);
    }),
  );

  it(
    "lets one of many racing updates at one revision win; the others see the winner",
    withBackend(open, async (b) => {
      const base = await b.create("/a/x", "base");
      const { winner, refusals } = await race(RACERS, (i) =>
        b.update("/a/x", `w${i}`, base.modRevision),
      );
      assert.equal(refusals.length, RACERS - 1);
      for (const e of refusals) {
        assert.ok(e instanceof RevisionMismatchError, String(e));
        assert.deepEqual(e.current, winner);
      }
      assert.deepEqual(await b.get("/a/x"), winner);
    }),
  );

  it(
    "lets one of many racing deletes win; the others find the key gone",
    withBackend(open, async (b) => {
      const base = await b.create("/a/x", "base");
      const { winner, refusals } = await race(RACERS, (i) =>
        // Half guard on the revision, half do not: all but one find nothing to delete.
        i % 2 === 0 ? b.delete("/a/x", base.modRevision) : b.delete("/a/x"),
      );
      assert.equal(winner.value, "base");
      for (const e of refusals) assert.ok(e instanceof KeyNotFoundError, String(e));
      assert.equal(await b.get("/a/x"), undefined);
      assert.equal(await b.currentRevision(), winner.modRevision);
    }),
  );

  it(
    "lets either an update or a delete racing at one revision win, never both",
    withBackend(open, async (b) => {
      const base = await b.create("/a/x", "base");
      const { winner, index, refusals } = await race(2, (i) =>
        i === 0
          ? b.update("/a/x", "updated", base.modRevision)
          : b.delete("/a/x", base.modRevision),
      );
      const [refusal] = refusals;
      if (index === 0) {
        // The update won: the delete saw the new revision.
        assert.ok(refusal instanceof RevisionMismatchError);
        assert.deepEqual(await b.get("/a/x"), winner);
      } else {
        // The delete won: the update found no key.
        assert.ok(refusal instanceof KeyNotFoundError);
        assert.equal(await b.get("/a/x"), undefined);
      }
    }),
  );

  it(
    "gives many concurrent writers on many keys distinct revisions, all watched once in order",
    withBackend(open, async (b) => {
      const rec = new Recorder();
      await b.watch("/c/", rec.options(await b.currentRevision()), rec.signal);
      const created = await Promise.all(
        Array.from({ length: 60 }, (_, i) => b.create(`/c/${i}`, `v${i}`)),
      );
      const updated = await Promise.all(
        created.map((kv) => b.update(kv.key, `${kv.value}'`, kv.modRevision)),
      );
      const deleted = await Promise.all(created.slice(0, 20).map((kv) => b.delete(kv.key)));
      const all: KeyValue[] = [...created, ...updated, ...deleted];
      const revisions = all.map((kv) => kv.modRevision).sort((x, y) => x - y);
      assert.equal(new Set(revisions).size, all.length);
      assert.equal(await b.currentRevision(), revisions.at(-1));
      await rec.waitForEvents(all.length);
      assert.deepEqual(rec.revisions(), revisions);
      // Each key's events come in its own write order: create, update, then delete.
      for (const kv of created.slice(0, 20)) {
        const types = rec.events.filter((e) => e.kv.key === kv.key).map((e) => e.type);
        assert.deepEqual(types, ["put", "put", "delete"]);
      }
      assert.equal(await b.count("/c/"), 40);
      rec.controller.abort();
    }),
  );
}
