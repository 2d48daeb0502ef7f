/**
 * The one test suite every Backend passes (as kine runs the same storage tests
 * against every driver). A backend's test file calls `runBackendSuite` with a
 * function that opens a fresh, empty backend; each test closes what it opens.
 *
 * Only compaction reaches past a backend's own keys (it is store-wide on etcd),
 * so a backend whose `open` gives a fresh prefix of one shared store passes
 * `openForCompaction`, which must give a store of its own.
 */
import { describe } from "node:test";
import type { Backend } from "../../../src/storage/backend.js";
import { closeTests } from "./close-tests.js";
import { compactionTests } from "./compaction-tests.js";
import { concurrencyTests } from "./concurrency-tests.js";
import { crudTests } from "./crud-tests.js";
import { listTests } from "./list-tests.js";
import { preconditionTests } from "./precondition-tests.js";
import { valueTests } from "./value-tests.js";
import { watchReplayTests } from "./watch-replay-tests.js";
import { watchTests } from "./watch-tests.js";

type Open = () => Promise<Backend>;

/** The cases that touch only the backend's own keys: safe on a prefix of a shared store. */
export function runPrefixScopedSuite(open: Open): void {
  describe("keys", () => crudTests(open));
  describe("preconditions", () => preconditionTests(open));
  describe("races", () => concurrencyTests(open));
  describe("values and keys", () => valueTests(open));
  describe("list and count", () => listTests(open));
  describe("watch", () => watchTests(open));
  describe("watch replay", () => watchReplayTests(open));
  describe("close", () => closeTests(open));
}

export function runBackendSuite(
  name: string,
  open: Open,
  opts: { openForCompaction?: Open } = {},
): void {
  describe(`${name} backend`, () => {
    runPrefixScopedSuite(open);
    describe("compaction", () => compactionTests(opts.openForCompaction ?? open));
  });
}
