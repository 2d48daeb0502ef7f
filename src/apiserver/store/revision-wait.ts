/**
 * Reads "not older than" a resourceVersion the server has not reached yet: as
 * kube-apiserver's watch cache (`waitUntilFreshAndBlock`), the read waits up to
 * 3 s for the revision to arrive, then fails with 504 Timeout and the cause
 * `ResourceVersionTooLarge`, telling the client to retry after a second.
 */
import { TooLargeResourceVersionError } from "../../api/index.js";
import type { Backend } from "../../storage/index.js";

/** kube's `blockTimeout` of the watch cache. */
export const FRESHNESS_TIMEOUT_MS = 3000;
/** kube's `resourceVersionTooHighRetrySeconds`. */
const RETRY_AFTER_SECONDS = 1;

/** Resolves once the backend's revision is at least `revision`; throws TooLarge after `timeoutMs`. */
export async function waitForRevision(
  backend: Backend,
  revision: number,
  timeoutMs = FRESHNESS_TIMEOUT_MS,
): Promise<void> {
  const current = await backend.currentRevision();
  if (revision <= current) return;
  const stop = new AbortController();
  const reached = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      resolve(ok);
    };
    // Every write moves the one global revision, so a watch of every key sees it arrive.
    backend
      .watch(
        "",
        {
          after: current,
          onEvent: (ev) => {
            if (ev.kv.modRevision >= revision) done(true);
          },
          onError: () => done(false),
        },
        stop.signal,
      )
      .catch(() => done(false));
  }).finally(() => stop.abort());
  if (reached) return;
  const now = await backend.currentRevision();
  if (now >= revision) return;
  throw new TooLargeResourceVersionError(revision, now, RETRY_AFTER_SECONDS);
}
