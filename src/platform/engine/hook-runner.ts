/**
 * Running a module's code during an uninstall (a `preDelete`/`postDelete`
 * hook, a teardown wave's `delete` or `waitFor`): with a client limited to
 * what the module declared, and a deadline of its own, so a call that hangs
 * fails (and is retried by the runtime) instead of holding a worker.
 */
import { errorText } from "../../client/index.js";
import type { EngineContext } from "./engine-context.js";
import { sharedReader } from "./engine-reads.js";
import { limitedClient } from "./limited-client.js";
import type { App, HookContext, HookPermission } from "./module.js";
import { StepError } from "./step-error.js";

export const DEFAULT_HOOK_DEADLINE_MS = 60_000;

/** Who a step is, for its errors: `preDelete hook`, `teardown wave "volumes"`. */
export interface StepIdentity {
  label: string;
  /** The reason of the condition and Event when it fails. */
  failReason: string;
  permissions: HookPermission[];
  /** Milliseconds one call may take. */
  callDeadlineMs: number;
}

/**
 * Calls `fn` with the limited client and the step's deadline; a failure is a
 * StepError. The client reads from the Manager's cache (`sharedReader`), or
 * from the server with `reads: "live"`.
 */
export async function runStep<T>(
  engine: EngineContext,
  step: StepIdentity,
  fn: (ctx: HookContext) => Promise<T>,
  app: App,
  signal: AbortSignal,
  reads: "cache" | "live" = "cache",
): Promise<T> {
  const deadline = step.callDeadlineMs;
  // The deadline is a timer of its own (kept alive, cleared when the call ends).
  const overdue = new AbortController();
  const timer = setTimeout(
    () => overdue.abort(new Error(`${step.label} did not finish within ${deadline} ms`)),
    deadline,
  );
  const stepSignal = AbortSignal.any([signal, overdue.signal]);
  const reader = reads === "live" ? engine.client : sharedReader(engine.client, engine.cache);
  try {
    return await Promise.race([
      fn({
        app,
        client: limitedClient(engine.client, step.permissions, reader),
        signal: stepSignal,
        appKinds: engine.appKinds(),
      }),
      new Promise<never>((_, reject) =>
        stepSignal.addEventListener("abort", () => reject(stepSignal.reason), { once: true }),
      ),
    ]);
  } catch (e) {
    throw new StepError(step.failReason, `${step.label} failed: ${errorText(e)}`, { cause: e });
  } finally {
    clearTimeout(timer);
  }
}
