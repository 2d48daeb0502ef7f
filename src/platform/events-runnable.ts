/** A Manager runnable that writes the Events a recorder still queues once the Manager stops. */
import type { EventRecorder } from "../client/index.js";
import type { Runnable } from "../runtime/index.js";

export function flushOnStop(events: EventRecorder): Runnable {
  return {
    async start(signal: AbortSignal): Promise<void> {
      if (!signal.aborted)
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      await events.flush();
    },
  };
}
