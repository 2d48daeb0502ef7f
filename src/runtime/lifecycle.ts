/**
 * Small pieces of the `start(signal)` lifecycle shared by every long-running
 * loop: waiting until a signal aborts, and a runnable that does its work only
 * then (flush recorded Events, close listeners) so a Manager runs it as one of
 * its own and waits for it before `start` resolves.
 */

/** Resolves once `signal` aborts (at once if it has); never rejects. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener("abort", () => resolve(), { once: true }),
  );
}

/**
 * A runnable that waits for its signal to abort and then runs `fn`: what must
 * happen when the Manager stops (flush Events, close listeners), awaited
 * before the Manager's `start` resolves.
 */
export function onStop(fn: () => unknown): { start(signal: AbortSignal): Promise<void> } {
  return {
    async start(signal) {
      await untilAborted(signal);
      await fn();
    },
  };
}
