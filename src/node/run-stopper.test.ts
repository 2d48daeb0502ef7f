import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PodState, RunRecord } from "./pod-state.js";
import { RunStopper } from "./run-stopper.js";

/** A runtime that records the signals it is asked to send, per attempt. */
function recorder() {
  const sent: string[] = [];
  return {
    sent,
    signal(run: RunRecord, sig: "SIGTERM" | "SIGKILL", grace: number) {
      sent.push(`${run.attempt}:${sig}:${grace}`);
      return true;
    },
  };
}

const run = (attempt: number): RunRecord => ({
  attempt,
  startedAt: "",
  containerId: `c${attempt}`,
});

const stateOf = (r: RunRecord): PodState => ({
  version: 1,
  uid: "u",
  namespace: "ns",
  name: "p",
  podIP: "10.88.0.2",
  startTime: "",
  terminationGracePeriodSeconds: 1,
  containers: { c: { restartCount: r.attempt, current: r } },
});

const exited = (r: RunRecord) => {
  r.exit = { exitCode: 137, reason: "Error", finishedAt: "" };
};

describe("RunStopper", () => {
  it("sends SIGTERM with the grace period, then SIGKILL once it is over", async () => {
    const rt = recorder();
    const r = run(0);
    const stopped: string[] = [];
    const s = new RunStopper(stateOf(r), rt, (name) => stopped.push(name));
    assert.equal(s.terminateAll(0.1), false);
    assert.deepEqual(stopped, ["c"]);
    assert.deepEqual(rt.sent, ["0:SIGTERM:0.1"]);
    assert.ok(s.isStopping("c"));
    const wait = s.next();
    assert.ok(wait !== undefined && wait <= 100);
    assert.equal(s.terminateAll(0.1), false, "a second sync sends nothing before the deadline");
    assert.deepEqual(rt.sent, ["0:SIGTERM:0.1"]);
    const deadline = Date.now() + 5000;
    while (rt.sent.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, s.next() ?? 10));
      s.terminateAll(0.1);
    }
    assert.deepEqual(rt.sent, ["0:SIGTERM:0.1", "0:SIGKILL:0"]);
    exited(r);
    assert.equal(s.terminateAll(0.1), true);
    assert.equal(s.next(), undefined);
  });

  it("a grace of 0 kills at once; a shorter grace period moves the kill closer", () => {
    const rt = recorder();
    const s = new RunStopper(stateOf(run(0)), rt, () => {});
    s.stop("c", 30);
    assert.ok((s.deadline("c") ?? 0) > 20_000);
    s.stop("c", 0);
    assert.deepEqual(rt.sent, ["0:SIGTERM:30", "0:SIGKILL:0"]);
    const now = recorder();
    new RunStopper(stateOf(run(0)), now, () => {}).stop("c", 0);
    assert.deepEqual(now.sent, ["0:SIGKILL:0"]);
  });

  it("forgets the stop of an earlier run: the next run is stopped anew", () => {
    const rt = recorder();
    const first = run(0);
    const st = stateOf(first);
    const s = new RunStopper(st, rt, () => {});
    s.stop("c", 0);
    exited(first);
    const second = run(1);
    st.containers.c = { restartCount: 1, current: second, previous: first };
    assert.equal(s.isStopping("c"), false, "a restarted container is not being stopped");
    assert.equal(s.terminateAll(0), false);
    assert.deepEqual(rt.sent, ["0:SIGKILL:0", "1:SIGKILL:0"]);
  });
});
