/**
 * `status.teardown`: where an uninstall stands, written before each wave
 * starts so that a restart resumes at the same wave with the same deadline.
 * `wave` names the current wave, `startedAt` is when it started (its deadline
 * counts from there), `waitingOn` what it waits for now, `residue` what the
 * waves so far left behind. The engine serves every app kind with it
 * (`TEARDOWN_STATUS_FIELDS`, added to each module's `statusFields`).
 */
import type { PlannedWave } from "./teardown-plan.js";

export interface TeardownStatus {
  wave: string;
  startedAt: string;
  waitingOn: string;
  residue: string[];
}

/** Where a teardown stands: the current wave's index in the plan, and its status. */
export interface Progress {
  index: number;
  status: TeardownStatus;
}

/** The schema of `status.teardown`, as a status field of every app kind's CRD. */
export const TEARDOWN_STATUS_FIELDS: Record<string, Record<string, unknown>> = {
  teardown: {
    type: "object",
    required: ["wave", "startedAt"],
    properties: {
      wave: { type: "string", minLength: 1 },
      startedAt: { type: "string", format: "date-time" },
      waitingOn: { type: "string" },
      residue: { type: "array", items: { type: "string" } },
    },
  },
};

export function startWave(
  index: number,
  plan: PlannedWave[],
  now: number,
  residue: string[],
): Progress {
  return {
    index,
    status: {
      wave: plan[index]?.name ?? "done",
      startedAt: new Date(now).toISOString(),
      waitingOn: "",
      residue,
    },
  };
}

/**
 * The progress stored in `status.teardown`, or undefined when there is none
 * or it names no wave of `plan` (a teardown then starts over: every wave is
 * idempotent).
 */
export function readProgress(stored: unknown, plan: PlannedWave[]): Progress | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const { wave, startedAt, waitingOn, residue } = stored as Record<string, unknown>;
  const index = plan.findIndex((w) => w.name === wave);
  if (index < 0 || typeof startedAt !== "string" || Number.isNaN(Date.parse(startedAt)))
    return undefined;
  return {
    index,
    status: {
      wave: wave as string,
      startedAt,
      waitingOn: typeof waitingOn === "string" ? waitingOn : "",
      residue: Array.isArray(residue) ? residue.filter((r) => typeof r === "string") : [],
    },
  };
}
