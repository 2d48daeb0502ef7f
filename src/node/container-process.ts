/**
 * One run of a container as a process tree: bwrap (the shim, leader of the
 * session the agent spawns it in) and its child, the container's process
 * (leader of its own session). stdout and stderr go to the run's log file, not
 * to pipes into the agent, so the process outlives the agent; bwrap writes the
 * child's pid and exit code to the run's status file. `observe` works the same
 * for a run this agent spawned and for one adopted from a previous agent.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { rfc3339 } from "../api/index.js";
import type { ExitRecord, RunRecord } from "./pod-state.js";

import { isRunning, readBwrapStatus, readStat, signalGroup, signalOf } from "./proc.js";
import { type HostLayout, type Mount, sandboxArgs } from "./sandbox.js";

export interface LaunchSpec {
  argv: string[];
  env: ReadonlyMap<string, string>;
  hostname: string;
  workingDir: string;
  mounts: Mount[];
  logFile: string;
  statusFile: string;
}

export interface Launched {
  shim: ChildProcess;
  run: RunRecord;
}

/** The fd on which bwrap writes its JSON status, in the shim. */
const STATUS_FD = 3;

/** Spawns the sandbox detached, in its own session; returns at once. */
export function launch(
  spec: LaunchSpec,
  attempt: number,
  layout: HostLayout,
  bwrap = "bwrap",
): Launched {
  mkdirSync(dirname(spec.logFile), { recursive: true });
  mkdirSync(dirname(spec.statusFile), { recursive: true });
  const log = openSync(spec.logFile, "a");
  const status = openSync(spec.statusFile, "w");
  try {
    const args = sandboxArgs(
      {
        command: spec.argv,
        hostname: spec.hostname,
        workingDir: spec.workingDir,
        mounts: spec.mounts,
        statusFd: STATUS_FD,
      },
      layout,
    );
    const shim = spawn(bwrap, args, {
      detached: true,
      stdio: ["ignore", log, log, status],
      env: Object.fromEntries(spec.env),
      cwd: "/",
    });
    // The agent does not wait on the shim to live: the pod outlives the agent.
    shim.unref();
    shim.on("error", () => {});
    const run: RunRecord = { attempt, startedAt: rfc3339() };
    if (shim.pid !== undefined) {
      run.shimPid = shim.pid;
      const st = readStat(shim.pid);
      if (st) run.shimStart = st.startTicks;
    }
    return { shim, run };
  } finally {
    closeSync(log);
    closeSync(status);
  }
}

/** The last non-empty line of a log (bwrap's own error when the sandbox could not start). */
function lastLine(file: string): string {
  try {
    const text = readFileSync(file, "utf8").trimEnd();
    return text.slice(text.lastIndexOf("\n") + 1).slice(0, 1024);
  } catch {
    return "";
  }
}

export type Observation = "running" | "exited";

/**
 * Updates `run` from the status file and /proc: learns the child's pid, and
 * when the run is over, records its exit (code from bwrap; unknown when neither
 * bwrap nor the child is left to tell). Returns what it saw.
 */
export function observe(run: RunRecord, statusFile: string, logFile: string): Observation {
  if (run.exit) return "exited";
  const status = readBwrapStatus(statusFile);
  if (run.pid === undefined && status.childPid !== undefined) {
    const st = readStat(status.childPid);
    run.pid = status.childPid;
    if (st) run.pidStart = st.startTicks;
  }
  if (status.exitCode !== undefined) {
    run.exit = exitRecord(status.exitCode);
    sweep(run);
    return "exited";
  }
  const childAlive = run.pid !== undefined && isRunning(run.pid, run.pidStart);
  const shimAlive = run.shimPid !== undefined && isRunning(run.shimPid, run.shimStart);
  if (childAlive || shimAlive) return "running";
  // bwrap writes the exit code before it exits: read again now that both are gone.
  const last = readBwrapStatus(statusFile).exitCode;
  if (last !== undefined) {
    run.exit = exitRecord(last);
    sweep(run);
    return "exited";
  }
  // bwrap reports no exit code when it fails before exec (its message ends the log).
  const line = lastLine(logFile);
  if (run.pid === undefined || line.startsWith("bwrap: ")) {
    run.exit = {
      exitCode: 128,
      reason: "StartError",
      message: line || "the sandbox exited before starting the container",
      finishedAt: rfc3339(),
    };
  } else {
    sweep(run);
    run.exit = {
      exitCode: 137,
      reason: "ContainerStatusUnknown",
      message: "The container could not be located when the pod was terminated",
      finishedAt: rfc3339(),
    };
  }
  return "exited";
}

/**
 * Ends what is left of the container's process group once its leader is gone
 * (a background child), as a cgroup kill would. The group's id cannot name
 * another process while a member lives, so this reaches only the container's.
 */
function sweep(run: RunRecord): void {
  if (run.pid !== undefined) signalGroup(run.pid, "SIGKILL");
}

export function exitRecord(exitCode: number): ExitRecord {
  const signal = signalOf(exitCode);
  return {
    exitCode,
    ...(signal ? { signal } : {}),
    reason: exitCode === 0 ? "Completed" : "Error",
    finishedAt: rfc3339(),
  };
}

/**
 * Signals the run's process group: the container's own session when its pid is
 * known (and still the same process), else bwrap's. False when nothing is left.
 */
export function signalRun(run: RunRecord, signal: NodeJS.Signals): boolean {
  if (run.pid !== undefined && isRunning(run.pid, run.pidStart))
    return signalGroup(run.pid, signal);
  if (run.shimPid !== undefined && isRunning(run.shimPid, run.shimStart))
    return signalGroup(run.shimPid, signal);
  return false;
}
