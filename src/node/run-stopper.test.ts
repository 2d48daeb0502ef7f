import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, describe, it } from "node:test";
import { signalRun } from "./container-process.js";
import type { PodState, RunRecord } from "./pod-state.js";
import { isRunning, readStat, signalGroup } from "./proc.js";
import { RunStopper } from "./run-stopper.js";

function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) resolve();
      else if (Date.now() > deadline) reject(new Error("condition not reached"));
      else setTimeout(poll, 10);
    };
    poll();
  });
}

/** Signals as the host runtime does: the run's process group. */
const host = { signal: (run: RunRecord, sig: "SIGTERM" | "SIGKILL") => signalRun(run, sig) };

describe("RunStopper", () => {
  const pids: number[] = [];
  after(() => {
    for (const pid of pids) signalGroup(pid, "SIGKILL");
  });

  /** A run whose process ignores SIGTERM (only SIGKILL ends it), leading its own group. */
  async function stubborn(attempt: number): Promise<RunRecord> {
    const child = spawn("sh", ["-c", "trap '' TERM; echo ready; while true; do sleep 0.05; done"], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    await new Promise((r) => child.stdout.once("data", r));
    child.stdout.destroy();
    child.unref();
    pids.push(child.pid!);
    return { attempt, startedAt: "", pid: child.pid!, pidStart: readStat(child.pid!)!.startTicks };
  }

  const state = (run: RunRecord): PodState => ({
    version: 1,
    uid: "u",
    namespace: "ns",
    name: "p",
    podIP: "127.1.0.1",
    startTime: "",
    terminationGracePeriodSeconds: 1,
    containers: { c: { restartCount: run.attempt, current: run } },
  });

  it("sends SIGTERM, then SIGKILL once the grace period is over", async () => {
    const run = await stubborn(0);
    const stopped: string[] = [];
    const s = new RunStopper(state(run), host, (name) => stopped.push(name));
    assert.equal(s.terminateAll(0.3), false);
    assert.deepEqual(stopped, ["c"]);
    assert.ok(s.isStopping("c"));
    assert.ok(isRunning(run.pid, run.pidStart), "SIGTERM is ignored");
    const wait = s.next();
    assert.ok(wait !== undefined && wait <= 300);
    await new Promise((r) => setTimeout(r, 350));
    s.terminateAll(0.3);
    await until(() => !isRunning(run.pid, run.pidStart));
    run.exit = { exitCode: 137, reason: "Error", finishedAt: "" };
    assert.equal(s.terminateAll(0.3), true);
    assert.equal(s.next(), undefined);
  });

  it("a shorter grace period moves the kill closer", async () => {
    const run = await stubborn(0);
    const s = new RunStopper(state(run), host, () => {});
    s.stop("c", 30);
    assert.ok((s.deadline("c") ?? 0) > 20_000);
    s.stop("c", 0);
    await until(() => !isRunning(run.pid, run.pidStart));
  });

  it("forgets the stop of an earlier run: the next run is stopped anew", async () => {
    const first = await stubborn(0);
    const st = state(first);
    const s = new RunStopper(st, host, () => {});
    s.stop("c", 0);
    await until(() => !isRunning(first.pid, first.pidStart));
    first.exit = { exitCode: 137, reason: "Error", finishedAt: "" };
    const second = await stubborn(1);
    st.containers.c = { restartCount: 1, current: second, previous: first };
    assert.equal(s.isStopping("c"), false, "a restarted container is not being stopped");
    assert.equal(s.terminateAll(0), false);
    await until(() => !isRunning(second.pid, second.pidStart));
  });
});
