import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { isRunning, parseStat, readStat, signalGroup } from "./proc.js";

describe("parseStat", () => {
  it("reads state, parents and start time past a command with spaces and parens", () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    fields[0] = "S";
    fields[19] = "123456";
    const st = parseStat(`42 (a (b) c) ${fields.join(" ")}`);
    assert.deepEqual(st, { pid: 42, state: "S", ppid: 4, pgid: 5, startTicks: 123456 });
    assert.equal(parseStat("garbage"), undefined);
  });
});

describe("process identity", () => {
  it("tells a live process by pid and start time, and a dead one", async () => {
    const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const pid = child.pid!;
    const st = readStat(pid)!;
    assert.equal(st.pgid, pid, "a detached child leads its own group");
    assert.ok(isRunning(pid));
    assert.ok(isRunning(pid, st.startTicks));
    assert.ok(!isRunning(pid, st.startTicks + 1), "another start time is another process");
    const exited = new Promise((r) => child.once("exit", r));
    assert.ok(signalGroup(pid, "SIGKILL"));
    await exited;
    assert.ok(!isRunning(pid));
    assert.ok(!signalGroup(pid, "SIGKILL"));
    assert.ok(!isRunning(undefined));
  });
});
