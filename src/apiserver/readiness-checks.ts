/**
 * The apiserver's own health checks, each named as kube-apiserver names its
 * counterpart where there is one: `ping` (the process answers), `storage` (the
 * backend answers a read within a bound, kube's `etcd`; the name says what it
 * is, as the backend may be SQLite) on all three endpoints, and `shutdown` on
 * `/readyz` only, failing once the server has begun to stop so that a load
 * balancer stops sending before the listener closes. The caches the server
 * needs are synced before it listens, so no check stands for them.
 */
import type { Backend } from "../storage/index.js";
import type { HealthCheck, HealthEndpoints } from "./readiness.js";

/** How long the storage check waits for the backend before it calls it unreachable. */
export const STORAGE_CHECK_TIMEOUT_MS = 2_000;

export function storageCheck(backend: Backend, timeoutMs = STORAGE_CHECK_TIMEOUT_MS): HealthCheck {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`storage did not answer within ${timeoutMs} ms`), timeoutMs);
    });
    try {
      return await Promise.race([backend.currentRevision().then(() => undefined), late]);
    } catch (e) {
      return `storage is unreachable: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      clearTimeout(timer);
    }
  };
}

export function addBuiltinChecks(
  health: HealthEndpoints,
  backend: Backend,
  signal: AbortSignal,
): void {
  const ping: HealthCheck = () => undefined;
  const storage = storageCheck(backend);
  for (const checks of [health.healthz, health.livez, health.readyz]) {
    checks.add("ping", ping);
    checks.add("storage", storage);
  }
  health.readyz.add("shutdown", () => (signal.aborted ? "the server is shutting down" : undefined));
}
