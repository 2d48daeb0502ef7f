import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ensureCondition, finalOf, newCondition } from "./job-conditions.js";
import { statusChanged, withCounters } from "./job-status.js";

describe("job status", () => {
  it("counts uncounted pods once their finalizer is gone", () => {
    const status = {
      succeeded: 1,
      uncountedTerminatedPods: { succeeded: ["a", "b"], failed: ["c"] },
    };
    const counts = { active: 2, ready: 1, terminating: 0 };
    const next = withCounters(status, counts, new Set(["b"]));
    assert.deepEqual(next, {
      succeeded: 2,
      failed: 1,
      active: 2,
      ready: 1,
      terminating: 0,
      uncountedTerminatedPods: { succeeded: ["b"] },
    });
    assert.deepEqual(status.uncountedTerminatedPods.succeeded, ["a", "b"], "input untouched");
    const none = withCounters({}, { active: 0, ready: 0, terminating: 0 }, new Set());
    assert.deepEqual(none, { ready: 0, terminating: 0, uncountedTerminatedPods: {} });
  });

  it("sees only real changes", () => {
    assert.equal(statusChanged({ ready: 0, terminating: 1 }, { terminating: 1, ready: 0 }), false);
    assert.equal(statusChanged(undefined, { conditions: [] } as object), false);
    assert.equal(statusChanged({ ready: 0 }, { ready: 1 }), true);
  });

  it("adds, updates and keeps conditions as kube's ensureJobConditionStatus", () => {
    const list = [newCondition("Suspended", "True", "JobSuspended", "Job suspended", 0)];
    assert.equal(
      ensureCondition(list, "Suspended", "True", "JobSuspended", "Job suspended", 5000),
      false,
    );
    assert.equal(
      ensureCondition(list, "Suspended", "False", "JobResumed", "Job resumed", 5000),
      true,
    );
    assert.equal(list[0]!.lastTransitionTime, "1970-01-01T00:00:05Z");
    assert.equal(
      ensureCondition(list, "Complete", "False", "x", "y", 0),
      false,
      "never added as False",
    );
    assert.equal(list.length, 1);
  });

  it("turns interim conditions into the final ones with the same reason", () => {
    const target = newCondition("FailureTarget", "True", "DeadlineExceeded", "late", 0);
    assert.deepEqual(
      { type: finalOf(target, 0).type, reason: finalOf(target, 0).reason },
      { type: "Failed", reason: "DeadlineExceeded" },
    );
    const met = newCondition("SuccessCriteriaMet", "True", "CompletionsReached", "done", 0);
    assert.equal(finalOf(met, 0).type, "Complete");
  });
});
