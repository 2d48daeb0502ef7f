/**
 * The fuzz suite of issue 11: seeded bad and odd requests against an apiserver
 * set up as `hearth up` sets it up (test/support/fuzz/target.ts), with the
 * properties checked after every request (test/support/fuzz/run.ts): no 5xx
 * kube would not return, nothing written by a refused request, nothing
 * accepted that kube surely refuses, the server alive after every batch.
 *
 * What it sends (test/support/fuzz/generate.ts): every verb — get, list, watch,
 * create, update, JSON/merge/strategic patch, apply, delete, deletecollection —
 * on every built-in kind, two CRDs and the app kinds Tenant and Etcd, their
 * subresources (status, scale, binding, log, token, finalize) and the reviews;
 * mutated bodies (wrong types, nulls, deep nesting, huge strings, odd unicode,
 * bad metadata) as JSON, YAML (aliases, alias bombs) and kube protobuf
 * (kubectl's captured bodies, truncated or garbled); every query parameter kube
 * knows with odd values, plus junk; dot segments, bad percent-encoding and `//`
 * in paths; other identities, impersonation and junk in headers; raw bytes with
 * malformed request lines and framing.
 *
 * Run one seed:        HEARTH_FUZZ_SEED=7 node --test dist/test/e2e/fuzz-requests.test.js
 * More requests:       HEARTH_FUZZ_COUNT=20000 (default 2000 per seed; CI runs seeds 1–5)
 * Every violation:     HEARTH_FUZZ_SHOW=1000 (default: 2 printed per class)
 * Reproduce a failure: each failure prints the seed, the request's index, method,
 * target, headers, body and the answer. The same seed replays the same requests
 * on a fresh server (a sentinel is re-created only after a request that
 * succeeded, so the sequence depends only on the seed and the server's code);
 * the printed request can also be sent alone with curl against `hearth up`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { type RunResult, report, runFuzz, violationClass } from "../support/fuzz/run.js";
import { Sentinels } from "../support/fuzz/sentinels.js";
import { type FuzzTarget, startFuzzTarget } from "../support/fuzz/target.js";

const SEEDS = process.env.HEARTH_FUZZ_SEED
  ? [Number(process.env.HEARTH_FUZZ_SEED)]
  : [1, 2, 3, 4, 5];
const COUNT = Number(process.env.HEARTH_FUZZ_COUNT ?? 2000);
/** Violations printed in full per class (HEARTH_FUZZ_SHOW to see more); the rest are counted. */
const SHOWN_PER_CLASS = Number(process.env.HEARTH_FUZZ_SHOW ?? 2);

/** A full GC, so RSS is measured on live memory (node:test cannot pass --expose-gc per file). */
function collect(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

function rssAfterGc(): number {
  collect();
  collect();
  return process.memoryUsage().rss;
}

function summary(r: RunResult): string {
  const statuses = [...r.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  const classes = new Map<string, number>();
  const shown = new Map<string, number>();
  const lines: string[] = [];
  for (const v of r.violations) {
    const c = violationClass(v);
    classes.set(c, (classes.get(c) ?? 0) + 1);
    if ((shown.get(c) ?? 0) < SHOWN_PER_CLASS) {
      shown.set(c, (shown.get(c) ?? 0) + 1);
      lines.push(report(r.seed, v));
    }
  }
  const ms = (n: number) => `${Math.round(n / 1000)} s`;
  return [
    `seed ${r.seed}: ${r.sent} requests sent, statuses ${statuses.join(" ")}`,
    `time in requests ${ms(r.timing.requests)}, in upkeep ${ms(r.timing.upkeep)}; slowest: ${r.slowest.map(([t, w]) => `${t} ms ${w}`).join("; ")}`,
    `${r.violations.length} violations in ${classes.size} classes (HEARTH_FUZZ_SEED=${r.seed} reproduces):`,
    ...[...classes].sort(([, a], [, b]) => b - a).map(([c, n]) => `  ${n}× ${c}`),
    "",
    ...lines,
  ].join("\n");
}

describe("fuzz: bad requests refused, nothing written, no 5xx", () => {
  let rssBefore = 0;
  let rssAfter = 0;
  let target: FuzzTarget | undefined;

  before(async () => {
    // The baseline: a server up with its sentinels, as each seed starts from.
    const t = await startFuzzTarget();
    await new Sentinels(t.admin).createAll();
    rssBefore = rssAfterGc();
    await t.stop();
  });
  after(async () => {
    await target?.stop();
  });

  for (const seed of SEEDS) {
    it(`seed ${seed}: ${COUNT} requests`, async () => {
      target = await startFuzzTarget();
      const sentinels = new Sentinels(target.admin);
      await sentinels.createAll();
      assert.deepEqual(sentinels.broken, [], "every sentinel can be created");
      const result = await runFuzz({
        url: target.url,
        backend: target.backend,
        sentinels,
        seed,
        count: COUNT,
      });
      if (seed === SEEDS[SEEDS.length - 1]) rssAfter = rssAfterGc();
      await target.stop();
      target = undefined;
      const text = summary(result);
      console.log(text.split("\n").slice(0, 3).join("\n"));
      assert.ok(result.sent >= COUNT * 0.95, `only ${result.sent} of ${COUNT} requests were sent`);
      assert.equal(result.violations.length, 0, text);
    });
  }

  it("keeps RSS within 2× of a fresh server's", () => {
    assert.ok(rssAfter > 0, "the last seed ran");
    assert.ok(
      rssAfter < 2 * rssBefore,
      `RSS ${Math.round(rssAfter / 2 ** 20)} MiB after the run, ${Math.round(rssBefore / 2 ** 20)} MiB before`,
    );
  });
});
