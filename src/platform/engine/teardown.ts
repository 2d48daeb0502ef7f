/**
 * One pass of an app's uninstall over its teardown plan (`teardown-plan.ts`).
 * The pass resumes at the wave `status.teardown` names (`teardown-progress.ts`)
 * and runs waves in order while they are done: a wave deletes what it selects
 * (only what the engine applied for this app, `child-deletion.ts`), then asks
 * its `waitFor`; a `recheck` wave already passed (the `preDelete` hook) is
 * asked again first. Before a wave starts its progress is written to status
 * and a Normal `TeardownWave` Event says so; a wave past its deadline (counted
 * from the persisted `startedAt`, so a restart does not reset it) records its
 * residue in status and a Warning `CleanupResidue` Event, and the next wave
 * starts. The pass answers whether every wave is done, or what it waits on.
 */
import type { Reader } from "../../client/index.js";
import { realClock } from "../../runtime/index.js";
import { deleteChild } from "./child-deletion.js";
import type { EngineContext } from "./engine-context.js";
import { runStep } from "./hook-runner.js";
import { describeEntry, readInventory, subtractEntries } from "./inventory.js";
import type { App, ChildScope, HookResult, InventoryEntry } from "./module.js";
import { type PlannedWave, selects } from "./teardown-plan.js";
import { type Progress, readProgress, startWave } from "./teardown-progress.js";

export interface TeardownRun {
  engine: EngineContext;
  /** The app's kind, for the ownership checks of its children. */
  kind: string;
  scope: ChildScope;
  plan: PlannedWave[];
  /** Reads the children to delete (`engine-reads.ts`). */
  reads: Reader;
  signal: AbortSignal;
  /** A merge patch of the app's status, guarded by its resourceVersion. */
  writeStatus(app: App, status: Record<string, unknown>): Promise<App>;
}

export type TeardownOutcome =
  | { done: true; app: App }
  | {
      done: false;
      app: App;
      reason: string;
      message: string;
      /** The children the wave waits to be gone (their delete events tell), if that is all it waits on. */
      children?: InventoryEntry[];
      /** Milliseconds until the wave's deadline passes. */
      deadlineInMs: number;
    };

/** A wave's answer; `children` when it waits only for children it deleted to be gone. */
type WaveResult = HookResult & { children?: InventoryEntry[] };

/** The app as last written: every status write answers the next resourceVersion. */
interface Current {
  app: App;
}

/** Runs the waves of `app`'s uninstall that can run now. */
export async function runTeardown(run: TeardownRun, app: App): Promise<TeardownOutcome> {
  const { plan, engine } = run;
  const cur: Current = { app };
  const now = () => (engine.clock ?? realClock).now();
  const persist = async (p: Progress) => {
    cur.app = await run.writeStatus(cur.app, { teardown: p.status });
  };
  const begin = async (p: Progress) => {
    await persist(p);
    const message = `wave ${p.index + 1}/${plan.length} "${plan[p.index]?.name}" started`;
    engine.events.event(cur.app, "Normal", "TeardownWave", message);
  };

  let progress = readProgress(app.status?.teardown, plan);
  if (!progress) {
    progress = startWave(0, plan, now(), []);
    await begin(progress);
  }
  // Waves passed in an earlier pass and rechecked, asked once per pass before the current one.
  let held = await recheck(run, cur, progress.index);
  while (progress.index < plan.length) {
    const wave = plan[progress.index]!;
    const { result, reason }: { result: WaveResult; reason: string } = held ?? {
      result: await runWave(run, cur, wave, true),
      reason: wave.waitingReason,
    };
    held = undefined;
    let residue = result.residue ?? [];
    if (!result.done) {
      const waitingOn = result.waitingFor ?? "the wave to finish";
      const elapsed = now() - Date.parse(progress.status.startedAt);
      if (elapsed < wave.deadlineMs) {
        if (progress.status.waitingOn !== waitingOn)
          await persist({ ...progress, status: { ...progress.status, waitingOn } });
        return {
          done: false,
          app: cur.app,
          reason,
          message: `waiting for ${waitingOn}`,
          ...(result.children ? { children: result.children } : {}),
          deadlineInMs: wave.deadlineMs - elapsed,
        };
      }
      residue = await residueOf(run, cur, wave, waitingOn);
      engine.events.event(
        cur.app,
        "Warning",
        "CleanupResidue",
        `teardown wave "${wave.name}" did not finish within ${wave.deadlineMs} ms; left behind: ${residue.join("; ")}`,
      );
    } else if (residue.length > 0) {
      engine.events.event(
        cur.app,
        "Warning",
        "CleanupResidue",
        `left behind: ${residue.join("; ")}`,
      );
    }
    const next = startWave(progress.index + 1, plan, now(), [
      ...progress.status.residue,
      ...residue,
    ]);
    // The last wave's progress stays: a pass after a failed finalizer removal resumes there.
    if (next.index < plan.length) await begin(next);
    progress = next;
  }
  return { done: true, app: cur.app };
}

/** The first rechecked wave before `index` that is no longer done, with its waiting reason. */
async function recheck(
  run: TeardownRun,
  cur: Current,
  index: number,
): Promise<{ result: HookResult; reason: string } | undefined> {
  for (const earlier of run.plan.slice(0, index).filter((w) => w.recheck)) {
    const result = await runWave(run, cur, earlier, false);
    if (!result.done) return { result, reason: earlier.waitingReason };
  }
  return undefined;
}

/** What a wave past its deadline leaves behind: its own answer, or what it waited on. */
async function residueOf(
  run: TeardownRun,
  cur: Current,
  wave: PlannedWave,
  waitingOn: string,
): Promise<string[]> {
  const residue = wave.residue;
  if (!residue) return [`teardown wave "${wave.name}" still waiting for ${waitingOn}`];
  return runStep(run.engine, wave.step, (ctx) => residue(ctx, waitingOn), cur.app, run.signal);
}

/**
 * One wave's deletes, then its wait: done once what it selected is gone and
 * `waitFor` holds. `waitFor` reads the cache; before the wave is first passed
 * (`confirm`), a wait the cache says is over is asked again live: informers of
 * different kinds lag independently (a claim created just before its pod went
 * may not be cached yet), and what comes after the wait cannot be taken back.
 */
async function runWave(
  run: TeardownRun,
  cur: Current,
  wave: PlannedWave,
  confirm: boolean,
): Promise<WaveResult> {
  const { engine, signal } = run;
  if (typeof wave.delete === "function") {
    const del = wave.delete;
    await runStep(engine, wave.step, (ctx) => del(ctx), cur.app, signal);
  } else if (wave.delete) {
    const selector = wave.delete;
    const inventory = readInventory(cur.app.status?.inventory);
    const left: InventoryEntry[] = [];
    const ignored: InventoryEntry[] = [];
    for (const child of inventory.filter((e) => selects(selector, e))) {
      const result = await deleteChild(engine, run.reads, cur.app, run.kind, run.scope, child);
      if (result === "deleting") left.push(child);
      if (result === "ignored") ignored.push(child);
    }
    if (ignored.length > 0)
      cur.app = await run.writeStatus(cur.app, {
        inventory: subtractEntries(inventory, ignored),
      });
    if (left.length > 0)
      return {
        done: false,
        waitingFor: `${left.length} objects to be deleted: ${left.slice(0, 5).map(describeEntry).join(", ")}`,
        children: left,
      };
  }
  if (!wave.waitFor) return { done: true };
  const waitFor = wave.waitFor;
  const result = await runStep(engine, wave.step, (ctx) => waitFor(ctx), cur.app, signal);
  if (!result.done || !confirm || !engine.cache) return result;
  return runStep(engine, wave.step, (ctx) => waitFor(ctx), cur.app, signal, "live");
}
