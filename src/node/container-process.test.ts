import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { launch, observe, signalRun } from "./container-process.js";
import type { RunRecord } from "./pod-state.js";
import { isRunning } from "./proc.js";
import { hostLayout } from "./sandbox.js";

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

describe("container runs: launch, adopt, exit codes", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-run-"));
  const started: RunRecord[] = [];
  after(() => {
    for (const run of started) signalRun(run, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  const files = (n: string) => ({
    logFile: join(dir, `${n}.log`),
    statusFile: join(dir, `${n}.status`),
  });
  const start = (n: string, script: string) => {
    const f = files(n);
    const { run } = launch(
      {
        argv: ["sh", "-c", script],
        env: new Map([
          ["PATH", "/usr/bin:/bin"],
          ["GREETING", "hi"],
        ]),
        hostname: "pod-x",
        workingDir: "/tmp",
        mounts: [],
        ...f,
      },
      0,
      hostLayout(),
    );
    started.push(run);
    return { run, ...f };
  };

  it("runs the command in the sandbox with its env and hostname, logging to a file", async () => {
    const { run, logFile, statusFile } = start(
      "hello",
      'echo "$GREETING from $(hostname) in $(pwd)"; exit 3',
    );
    await until(() => observe(run, statusFile, logFile) === "exited");
    assert.equal(run.exit?.exitCode, 3);
    assert.equal(run.exit?.reason, "Error");
    assert.ok(run.pid && run.pid !== run.shimPid, "the container pid is bwrap's child");
    assert.equal(readFileSync(logFile, "utf8"), "hi from pod-x in /tmp\n");
  });

  it("adopts a run from its record alone and reads the exit code bwrap kept", async () => {
    const { run, logFile, statusFile } = start(
      "long",
      "trap 'exit 42' TERM; echo trapped; while true; do sleep 0.1; done",
    );
    await until(
      () =>
        observe(run, statusFile, logFile) === "running" &&
        readFileSync(logFile, "utf8").includes("trapped"),
    );
    // A new agent knows only the state file's record.
    const adopted: RunRecord = JSON.parse(JSON.stringify(run));
    assert.equal(observe(adopted, statusFile, logFile), "running");
    assert.ok(isRunning(adopted.pid, adopted.pidStart));
    // A recorded start time that does not match is another process: never adopted.
    const stale: RunRecord = {
      ...JSON.parse(JSON.stringify(run)),
      pidStart: (run.pidStart ?? 0) + 1,
      shimStart: (run.shimStart ?? 0) + 1,
    };
    assert.equal(isRunning(stale.pid, stale.pidStart), false);
    assert.ok(signalRun(adopted, "SIGTERM"));
    await until(() => observe(adopted, statusFile, logFile) === "exited");
    assert.equal(adopted.exit?.exitCode, 42, "the exit code came from bwrap's status file");
  });

  it("reports a killed container as 128 + signal, and a sandbox that failed as StartError", async () => {
    // Killed once it runs (a child killed while bwrap still sets up has no exit code to report).
    const { run, logFile, statusFile } = start("killed", "echo up; exec sleep 30");
    await until(() => {
      observe(run, statusFile, logFile);
      return run.pid !== undefined && readFileSync(logFile, "utf8") === "up\n";
    });
    process.kill(run.pid!, "SIGKILL");
    await until(() => observe(run, statusFile, logFile) === "exited");
    assert.deepEqual([run.exit?.exitCode, run.exit?.signal], [137, 9]);

    const f = files("bad");
    const { run: bad } = launch(
      {
        argv: ["true"],
        env: new Map(),
        hostname: "h",
        workingDir: "/does/not/exist",
        mounts: [],
        ...f,
      },
      0,
      hostLayout(),
    );
    await until(() => observe(bad, f.statusFile, f.logFile) === "exited");
    assert.equal(bad.exit?.reason, "StartError");
    assert.match(bad.exit?.message ?? "", /does\/not\/exist/);
  });

  it("treats a run whose processes are gone without a word as unknown", () => {
    const f = files("ghost");
    const ghost: RunRecord = {
      attempt: 0,
      startedAt: "2025-01-01T00:00:00Z",
      pid: 999_999_999,
      shimPid: 999_999_998,
    };
    assert.equal(observe(ghost, f.statusFile, f.logFile), "exited");
    assert.equal(ghost.exit?.reason, "ContainerStatusUnknown");
    assert.equal(ghost.exit?.exitCode, 137);
  });
});
