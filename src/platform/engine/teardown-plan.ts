/**
 * An app's uninstall as a list of waves: the module's `preDelete` hook (a
 * gate, asked again on every later pass: children are never deleted while it
 * is not done), the module's own `teardown` waves, the engine's two waves for
 * whatever is left in the inventory (the rest, then the namespaces the rest
 * lives in), and the `postDelete` hook. Hooks wait as long as they did before
 * waves existed, up to a generous deadline.
 */

import { DEFAULT_HOOK_DEADLINE_MS, type StepIdentity } from "./hook-runner.js";
import type { AppModule, InventoryEntry, InventorySelector, TeardownWave } from "./module.js";

/** How long a hook or the engine's own waves may wait before reporting residue. */
export const DEFAULT_WAVE_DEADLINE_MS = 15 * 60_000;

export interface PlannedWave extends TeardownWave {
  /** The reason of the `Ready` condition while the wave waits. */
  waitingReason: string;
  /** How its calls are run (label, failure reason, permissions, per-call deadline). */
  step: StepIdentity;
  /** Asked again on every pass after it was done; the teardown waits while it is not. */
  recheck: boolean;
}

const containers: InventorySelector = { kinds: ["Namespace"] };

/** Whether `selector` picks `e`. */
export function selects(selector: InventorySelector, e: InventoryEntry): boolean {
  if (selector.kinds && !selector.kinds.includes(e.kind)) return false;
  if (selector.exceptKinds?.includes(e.kind)) return false;
  return true;
}

function engineWave(name: string, selector: InventorySelector): PlannedWave {
  return {
    name,
    delete: selector,
    deadlineMs: DEFAULT_WAVE_DEADLINE_MS,
    waitingReason: "DeletingChildren",
    step: {
      label: `teardown wave "${name}"`,
      failReason: "DeleteFailed",
      permissions: [],
      callDeadlineMs: DEFAULT_HOOK_DEADLINE_MS,
    },
    recheck: false,
  };
}

/** The waves of `module`'s uninstall, in order; throws on a duplicate name. */
export function teardownPlan(module: AppModule): PlannedWave[] {
  const hooks = module.hooks;
  const callDeadlineMs = hooks?.deadlineMs ?? DEFAULT_HOOK_DEADLINE_MS;
  const hookWave = (which: "preDelete" | "postDelete"): PlannedWave[] => {
    const hook = hooks?.[which];
    if (!hooks || !hook) return [];
    const pre = which === "preDelete";
    return [
      {
        name: which,
        waitFor: hook,
        permissions: hooks.permissions,
        deadlineMs: DEFAULT_WAVE_DEADLINE_MS,
        waitingReason: pre ? "PreDeleteWaiting" : "PostDeleteWaiting",
        step: {
          label: `${which} hook`,
          failReason: pre ? "PreDeleteHookFailed" : "PostDeleteHookFailed",
          permissions: hooks.permissions,
          callDeadlineMs,
        },
        recheck: pre,
      },
    ];
  };
  const own = (module.teardown ?? []).map(
    (w): PlannedWave => ({
      ...w,
      waitingReason: "TeardownWaiting",
      step: {
        label: `teardown wave "${w.name}"`,
        failReason: "TeardownWaveFailed",
        permissions: w.permissions ?? [],
        callDeadlineMs,
      },
      recheck: false,
    }),
  );
  const plan = [
    ...hookWave("preDelete"),
    ...own,
    engineWave("children", { exceptKinds: containers.kinds }),
    engineWave("namespaces", containers),
    ...hookWave("postDelete"),
  ];
  const names = new Set<string>();
  for (const w of plan) {
    if (names.has(w.name))
      throw new Error(
        `teardown wave "${w.name}" is declared twice (or shadows one of the engine's)`,
      );
    names.add(w.name);
  }
  return plan;
}
