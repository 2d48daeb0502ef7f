/**
 * The one test suite every Backend passes (as kine runs the same storage tests
 * against every driver). A backend's test file calls `runBackendSuite` with a
 * function that opens a fresh, empty backend; each test closes what it opens.
 */
import { describe } from "node:test";
import type { Backend } from "./backend.js";
import { compactionTests } from "./suite/compaction-tests.js";
import { crudTests } from "./suite/crud-tests.js";
import { listTests } from "./suite/list-tests.js";
import { watchTests } from "./suite/watch-tests.js";

export function runBackendSuite(name: string, open: () => Promise<Backend>): void {
  describe(`${name} backend`, () => {
    describe("keys", () => crudTests(open));
    describe("list and count", () => listTests(open));
    describe("watch", () => watchTests(open));
    describe("compaction and close", () => compactionTests(open));
  });
}
