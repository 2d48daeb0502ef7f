/**
 * A failed step of an app's reconcile, with the condition reason it surfaces
 * as (`RenderFailed`, `ApplyFailed`, `DeleteFailed`, `PreDeleteHookFailed`, …).
 */
export class StepError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
