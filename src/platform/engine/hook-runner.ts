/**
 * Running an app module's `preDelete`/`postDelete` hook: with a client limited
 * to what the module declared, and a deadline of its own, so a hook that hangs
 * fails (and is retried by the runtime) instead of holding a worker.
 */
import { errorText } from "../../client/index.js";
import type { EngineContext } from "./engine-context.js";
import { limitedClient } from "./limited-client.js";
import type { App, AppHooks, HookResult } from "./module.js";
import { StepError } from "./step-error.js";

const DEFAULT_HOOK_DEADLINE_MS = 60_000;

export type HookName = "preDelete" | "postDelete";

/** The hook's answer; a module without that hook is done at once. */
export async function runHook(
  engine: EngineContext,
  hooks: AppHooks | undefined,
  which: HookName,
  app: App,
  signal: AbortSignal,
): Promise<HookResult> {
  const hook = hooks?.[which];
  if (!hooks || !hook) return { done: true };
  const deadline = hooks.deadlineMs ?? DEFAULT_HOOK_DEADLINE_MS;
  const reason = which === "preDelete" ? "PreDeleteHookFailed" : "PostDeleteHookFailed";
  // The deadline is a timer of its own (kept alive, cleared when the hook ends).
  const overdue = new AbortController();
  const timer = setTimeout(
    () => overdue.abort(new Error(`${which} hook did not finish within ${deadline} ms`)),
    deadline,
  );
  const hookSignal = AbortSignal.any([signal, overdue.signal]);
  try {
    return await Promise.race([
      hook({
        app,
        client: limitedClient(engine.client, hooks.permissions),
        signal: hookSignal,
        appKinds: engine.appKinds(),
      }),
      new Promise<never>((_, reject) =>
        hookSignal.addEventListener("abort", () => reject(hookSignal.reason), { once: true }),
      ),
    ]);
  } catch (e) {
    throw new StepError(reason, `${which} hook failed: ${errorText(e)}`, { cause: e });
  } finally {
    clearTimeout(timer);
  }
}
