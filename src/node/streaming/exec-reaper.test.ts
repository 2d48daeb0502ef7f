/**
 * ExecReaper with this test process standing in for a container's shim: its
 * children are the "container's" processes, the first the init.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import { ExecReaper } from "./exec-reaper.js";

const children: ChildProcess[] = [];
function child(...argv: string[]): ChildProcess {
  const c = spawn(argv[0]!, argv.slice(1), { stdio: "ignore" });
  children.push(c);
  return c;
}

/** Resolves once the child runs its program (its cmdline is no longer node's). */
async function execed(c: ChildProcess): Promise<void> {
  await until(() => {
    try {
      return readFileSync(`/proc/${c.pid}/cmdline`, "utf8").startsWith("sleep\0");
    } catch {
      return false;
    }
  });
}

const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("ExecReaper", () => {
  after(() => {
    for (const c of children) if (alive(c)) c.kill("SIGKILL");
  });
  const init = child("sleep", "301");

  it("kills the session's process when its client went away, not the others", async () => {
    const before = child("sleep", "302");
    const reaper = new ExecReaper(async () => init.pid, "c1", ["sleep", "302"]);
    await reaper.prepare();
    // Started after prepare: one with another command, then the session's.
    const other = child("sleep", "303");
    const mine = child("sleep", "302");
    await execed(other);
    await execed(mine);
    const signal = new AbortController();
    reaper.watch(signal.signal);
    reaper.end(true);
    signal.abort();
    await once(mine, "exit");
    assert.equal(mine.signalCode, "SIGKILL");
    assert.ok(alive(before), "a process from before the session is left alone");
    assert.ok(alive(other), "a process running another command is left alone");
    assert.ok(alive(init));
  });

  it("kills nothing when the process ended on its own first, and never takes another session's", async () => {
    const a = new ExecReaper(async () => init.pid, "c1", ["sleep", "304"]);
    const b = new ExecReaper(async () => init.pid, "c1", ["sleep", "304"]);
    await a.prepare();
    await b.prepare();
    const first = child("sleep", "304");
    await execed(first);
    const signal = new AbortController();
    a.watch(signal.signal);
    const second = child("sleep", "304");
    await execed(second);
    // b cannot take a's process: it gets the second one.
    b.end(true);
    await once(second, "exit");
    assert.ok(alive(first));
    a.end(false);
    signal.abort();
    assert.ok(alive(first), "a normal end kills nothing");
  });

  it("does nothing for a container it cannot find", async () => {
    const reaper = new ExecReaper(async () => undefined, "gone", ["sleep", "305"]);
    await reaper.prepare();
    const c = child("sleep", "305");
    await execed(c);
    reaper.end(true);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(alive(c));
  });
});
