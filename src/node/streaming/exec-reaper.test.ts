/**
 * ExecReaper with children of this test process standing in for a
 * container's processes, listed as containerd's ListPids lists them: each
 * with the exec id the test gives it (none for the "init").
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import type { ContainerProcess } from "../cri/index.js";
import { ExecReaper } from "./exec-reaper.js";

const children: ChildProcess[] = [];
/** The "container": what ListPids answers. */
const listed = new Map<number, string | undefined>();
let execs = 0;

/** Starts `argv` as an exec of the container (or, with `init`, as its init). */
function exec(argv: string[], init = false): ChildProcess {
  const c = spawn(argv[0]!, argv.slice(1), { stdio: "ignore" });
  children.push(c);
  listed.set(c.pid!, init ? undefined : `exec-${++execs}`);
  c.on("exit", () => listed.delete(c.pid!));
  return c;
}

const listPids = async (id: string): Promise<ContainerProcess[]> => {
  if (id !== "c1") throw new Error(`container "${id}" not found`);
  return [...listed].map(([pid, execId]) => (execId ? { pid, execId } : { pid }));
};

/** Resolves once the child runs `sleep` (its cmdline is no longer what spawned it). */
async function sleeping(c: ChildProcess): Promise<void> {
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

/** A session's reaper, prepared (as before the session's streams open). */
async function session(cmd: string[]): Promise<ExecReaper> {
  const reaper = new ExecReaper(listPids, "c1", cmd);
  await reaper.prepare();
  return reaper;
}

describe("ExecReaper", () => {
  after(() => {
    for (const c of children) if (alive(c)) c.kill("SIGKILL");
  });
  const init = exec(["sleep", "301"], true);

  it("kills the session's process when its client went away, not the others", async () => {
    const before = exec(["sleep", "302"]);
    const s = await session(["sleep", "302"]);
    const watching = new AbortController();
    s.watch(watching.signal);
    // Started after prepare: an exec of another command (a probe, say), then the session's.
    const other = exec(["sleep", "303"]);
    const mine = exec(["sleep", "302"]);
    await sleeping(other);
    await sleeping(mine);
    watching.abort();
    await s.end(true);
    await once(mine, "exit");
    assert.equal(mine.signalCode, "SIGKILL");
    assert.ok(alive(before), "an exec from before the session is left alone");
    assert.ok(alive(other), "an exec running another command is left alone");
    assert.ok(alive(init));
  });

  it("finds a process that replaced itself by its exec id, and kills its children too", async () => {
    const cmd = ["sh", "-c", "sleep 306 & exec sleep 307"];
    const s = await session(cmd);
    const mine = exec(cmd);
    await sleeping(mine);
    // The shell forked the background sleep before it replaced itself.
    const child = Number(readFileSync(`/proc/${mine.pid}/task/${mine.pid}/children`, "utf8"));
    assert.ok(child > 0, "the backgrounded sleep runs under the exec'd one");
    assert.equal(await s.identify(), listed.get(mine.pid!));
    await s.end(true);
    await once(mine, "exit");
    assert.equal(mine.signalCode, "SIGKILL");
    await until(() => {
      try {
        process.kill(child, 0);
        return false;
      } catch {
        return true;
      }
    });
  });

  it("waits while two new execs both might be the session's, then takes the one left", async () => {
    const a = await session(["sh", "-c", "exec sleep 308"]);
    const b = await session(["sh", "-c", "exec sleep 309"]);
    const first = exec(["sh", "-c", "exec sleep 308"]);
    const second = exec(["sh", "-c", "exec sleep 309"]);
    await sleeping(first);
    await sleeping(second);
    // Neither runs its session's command any more: neither session can tell which is its own.
    assert.equal(await a.identify(), undefined);
    assert.equal(await b.identify(), undefined);
    first.kill("SIGKILL");
    await once(first, "exit");
    await b.end(true);
    await once(second, "exit");
    assert.equal(second.signalCode, "SIGKILL");
    await a.end(false);
  });

  it("kills nothing when the process ended on its own first, and never takes another session's", async () => {
    const a = await session(["sleep", "304"]);
    const b = await session(["sleep", "304"]);
    const first = exec(["sleep", "304"]);
    await sleeping(first);
    assert.equal(await a.identify(), listed.get(first.pid!));
    const second = exec(["sleep", "304"]);
    await sleeping(second);
    // b cannot take a's process: it gets the second one.
    await b.end(true);
    await once(second, "exit");
    assert.ok(alive(first));
    await a.end(false);
    assert.ok(alive(first), "a normal end kills nothing");
  });

  it("kills a process listed only after its client went away", async () => {
    const s = await session(["sleep", "310"]);
    const ending = s.end(true);
    const late = exec(["sleep", "310"]);
    await ending;
    await once(late, "exit");
    assert.equal(late.signalCode, "SIGKILL");
  });

  it("does nothing for a container it cannot list", async () => {
    const reaper = new ExecReaper(listPids, "gone", ["sleep", "305"]);
    await reaper.prepare();
    const c = exec(["sleep", "305"]);
    await sleeping(c);
    await reaper.end(true);
    assert.ok(alive(c));
  });
});
