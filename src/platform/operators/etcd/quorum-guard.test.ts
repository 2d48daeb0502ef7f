/** The quorum guard: who must answer before a member leaves, and when its removal is blocked. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type GuardMember, removeBlocked, votersToCheck } from "./quorum-guard.js";

const m = (ID: string, isLearner = false): GuardMember => ({ ID, name: `etcd-${ID}`, isLearner });

describe("votersToCheck", () => {
  it("has nothing to remove for a member etcd does not list, or the last one", () => {
    assert.equal(votersToCheck([m("1"), m("2")], undefined), undefined);
    const only = m("1");
    assert.equal(votersToCheck([only], only), undefined);
  });

  it("asks every other voter, and no learner", () => {
    const [a, b, c, learner] = [m("1"), m("2"), m("3"), m("4", true)];
    assert.deepEqual(votersToCheck([a, b, c, learner], b), [a, c]);
    assert.deepEqual(votersToCheck([a, learner], learner), [a], "a learner may leave");
    assert.deepEqual(votersToCheck([a, learner], a), [], "no voter left to ask");
  });
});

describe("removeBlocked", () => {
  it("lets the member go when every remaining voter answers", () => {
    assert.equal(removeBlocked("etcd-2", [true, true]), undefined);
    assert.equal(removeBlocked("etcd-2", []), undefined);
  });

  it("blocks it, saying how many voters are silent, when any does not answer", () => {
    assert.equal(
      removeBlocked("etcd-2", [true, false]),
      "cannot remove member etcd-2 from etcd: 1 of the 2 remaining voters do not answer",
    );
    assert.equal(
      removeBlocked("etcd-1", [false, false]),
      "cannot remove member etcd-1 from etcd: 2 of the 2 remaining voters do not answer",
    );
  });
});
