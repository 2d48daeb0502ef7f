/**
 * Helpers for end-to-end tests of the node agent: a pod CIDR of its own for
 * each test (so concurrent tests never share a pod IP), the pids recorded in
 * the pods' state files, and a last-resort kill of those processes (by pid and
 * checked start time, never by name) so no test leaves a process behind.
 */
import { isRunning, loadState, PodDirs, signalGroup } from "../../src/node/index.js";
import type { Hearth } from "./hearth-process.js";

/** A /16 inside 127.100.0.0–127.249.0.0, away from the defaults (127.1 pods, 127.2 services). */
export function testPodCidr(): string {
  return `127.${100 + Math.floor(Math.random() * 150)}.0.0/16`;
}

export interface RecordedProcess {
  uid: string;
  container: string;
  pid: number;
  pidStart?: number;
  shimPid?: number;
  shimStart?: number;
}

/** Every current run recorded under `dataDir/pods`. */
export function recordedProcesses(dataDir: string): RecordedProcess[] {
  const dirs = new PodDirs(dataDir);
  const out: RecordedProcess[] = [];
  for (const uid of dirs.listPods()) {
    const state = loadState(dirs, uid);
    for (const [container, rec] of Object.entries(state?.containers ?? {})) {
      const run = rec.current;
      if (run?.pid === undefined) continue;
      out.push({
        uid,
        container,
        pid: run.pid,
        ...(run.pidStart !== undefined ? { pidStart: run.pidStart } : {}),
        ...(run.shimPid !== undefined ? { shimPid: run.shimPid } : {}),
        ...(run.shimStart !== undefined ? { shimStart: run.shimStart } : {}),
      });
    }
  }
  return out;
}

/** The recorded processes still alive (same pid and start time). */
export function liveProcesses(dataDir: string): RecordedProcess[] {
  return recordedProcesses(dataDir).filter(
    (p) =>
      isRunning(p.pid, p.pidStart) ||
      (p.shimPid !== undefined && isRunning(p.shimPid, p.shimStart)),
  );
}

/** SIGKILLs what is left of the recorded processes; returns how many were alive. */
export function killRecorded(dataDir: string): number {
  const live = liveProcesses(dataDir);
  for (const p of live) {
    if (isRunning(p.pid, p.pidStart)) signalGroup(p.pid, "SIGKILL");
    if (p.shimPid !== undefined && isRunning(p.shimPid, p.shimStart))
      signalGroup(p.shimPid, "SIGKILL");
  }
  return live.length;
}

export async function nodeName(h: Hearth): Promise<string> {
  return (await h.kubectlOk(["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"])).trim();
}

/** Stops hearth (SIGTERM: pods are stopped), kills any recorded leftover, removes everything. */
export async function stopAndClean(h: Hearth | undefined): Promise<number> {
  if (!h) return 0;
  if (h.process.exitCode === null && h.process.signalCode === null) await h.stop();
  const leftover = killRecorded(h.dataDir);
  await h.cleanup();
  return leftover;
}
