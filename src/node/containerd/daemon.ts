/**
 * One containerd process of a Hearth data directory: started detached (its
 * own session, stdout and stderr to DIR/containerd/containerd.log, not a
 * pipe), so it does not die with the Hearth that started it; or adopted from
 * the pid file a previous Hearth wrote, when that process still runs with
 * this directory's config (pid + start time + command line, so a reused pid
 * is never mistaken for it).
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { isRunning, readStat } from "../proc.js";

export interface DaemonProcess {
  pid: number;
  startTicks: number;
  /** Resolves when the process is gone (exited, or a zombie nobody reaps). */
  exited: Promise<void>;
  /** True for a process this Hearth spawned (its exit is an event, not a poll). */
  spawned: boolean;
}

const POLL_MS = 500;

function exitedByPoll(pid: number, startTicks: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (isRunning(pid, startTicks)) return;
      clearInterval(timer);
      resolve();
    }, POLL_MS);
    // A process Hearth did not start must not keep Hearth alive.
    timer.unref();
  });
}

export function spawnDaemon(binary: string, config: string, logFile: string): DaemonProcess {
  const log = openSync(logFile, "a");
  try {
    const child = spawn(binary, ["--config", config], {
      detached: true,
      stdio: ["ignore", log, log],
    });
    if (child.pid === undefined) throw new Error(`cannot start ${binary}`);
    const pid = child.pid;
    const exited = new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.once("error", () => resolve());
    });
    // The child is not waited for by Hearth's exit: it outlives a `kill -9` of Hearth.
    child.unref();
    return { pid, startTicks: readStat(pid)?.startTicks ?? 0, exited, spawned: true };
  } finally {
    closeSync(log);
  }
}

export function writePidFile(file: string, p: DaemonProcess): void {
  writeFileSync(file, `${p.pid} ${p.startTicks}\n`);
}

/** The live containerd a previous Hearth started on this config, if any. */
export function adoptDaemon(pidFile: string, config: string): DaemonProcess | undefined {
  let text: string;
  try {
    text = readFileSync(pidFile, "utf8");
  } catch {
    return undefined;
  }
  const [pid, startTicks] = text.trim().split(/\s+/).map(Number);
  if (!pid || startTicks === undefined || !isRunning(pid, startTicks)) return undefined;
  let cmdline: string[];
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return undefined;
  }
  if (!cmdline.includes(config)) return undefined;
  return { pid, startTicks, exited: exitedByPoll(pid, startTicks), spawned: false };
}

/** Signals the process if it is still the one recorded; false when it is gone. */
export function signalDaemon(p: DaemonProcess, signal: NodeJS.Signals): boolean {
  if (!isRunning(p.pid, p.startTicks)) return false;
  try {
    process.kill(p.pid, signal);
    return true;
  } catch {
    return false;
  }
}
