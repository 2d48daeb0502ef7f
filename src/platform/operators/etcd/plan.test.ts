import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nextStep, type ObservedMember, resumeBootstrap } from "./plan.js";

const m = (name: string, over: Partial<ObservedMember> = {}): ObservedMember => ({
  name,
  created: `2026-01-01T00:00:0${name.slice(-1)}Z`,
  deleting: false,
  pending: false,
  ready: true,
  etcd: { id: `${name}-id`, learner: false, healthy: true },
  ...over,
});
const pending = (name: string) => m(name, { pending: true, ready: false, etcd: undefined });

describe("the next membership step", () => {
  it("bootstraps 1 or 3 members at once: creates them, then starts them together", () => {
    assert.deepEqual(nextStep(3, []), { kind: "create", count: 3 });
    assert.deepEqual(nextStep(3, [pending("a1")]), { kind: "create", count: 2 });
    assert.deepEqual(nextStep(3, [pending("a3"), pending("a1"), pending("a2")]), {
      kind: "bootstrap",
      members: ["a1", "a2", "a3"],
    });
    assert.deepEqual(nextStep(1, []), { kind: "create", count: 1 });
    assert.deepEqual(nextStep(0, []), { kind: "create", count: 1 }, "a dormant member");
    assert.deepEqual(nextStep(1, [pending("a1"), pending("a2")]), { kind: "remove", member: "a2" });
  });

  it("finishes a bootstrap a crash cut short: the pending members are told the same", () => {
    const boot = ["a1", "a2", "a3"];
    const started = m("a1", { ready: false, etcd: undefined, bootstrap: boot });
    const step = { kind: "bootstrap", members: boot };
    assert.deepEqual(nextStep(3, [started, pending("a2"), pending("a3")]), step);
    assert.deepEqual(resumeBootstrap([started, pending("a2"), pending("a3")]), step);
    const all = boot.map((n) => m(n, { bootstrap: boot }));
    assert.equal(resumeBootstrap(all), undefined, "all started");
    const alone = m("a1", { bootstrap: ["a1"] });
    assert.deepEqual(
      nextStep(3, [alone, pending("a2")]),
      { kind: "add", member: "a2" },
      "a joiner is added",
    );
    assert.equal(resumeBootstrap([started, pending("a2")]), undefined, "a named member is gone");
    assert.equal(
      resumeBootstrap([started, pending("a2"), { ...pending("a3"), deleting: true }]),
      undefined,
      "a named member is leaving",
    );
  });

  it("scales up one at a time: a healthy cluster gets one member, added as a learner, then promoted", () => {
    assert.deepEqual(nextStep(3, [m("a1")]), { kind: "create", count: 1 });
    assert.deepEqual(nextStep(3, [m("a1"), pending("a2")]), { kind: "add", member: "a2" });
    const learner = m("a2", { ready: false, etcd: { id: "x", learner: true, healthy: true } });
    assert.deepEqual(nextStep(3, [m("a1"), learner]), { kind: "promote", member: "a2", id: "x" });
    assert.deepEqual(nextStep(3, [m("a1"), m("a2")]), { kind: "create", count: 1 });
    assert.deepEqual(nextStep(3, [m("a1"), m("a2"), m("a3")]), { kind: "steady" });
  });

  it("scales down one at a time, newest first, only when every member is healthy", () => {
    const three = [m("a2"), m("a3"), m("a1")];
    assert.deepEqual(nextStep(1, three), { kind: "remove", member: "a3" });
    assert.deepEqual(nextStep(1, [m("a1"), m("a2"), m("a3", { deleting: true })]), {
      kind: "wait",
      reason: "member a3 is leaving",
    });
    assert.deepEqual(nextStep(1, [m("a1"), m("a2", { ready: false }), m("a3")]), {
      kind: "wait",
      reason: "member a2 is not healthy",
    });
    assert.deepEqual(nextStep(0, [m("a1"), m("a2")]), { kind: "remove", member: "a2" });
    assert.deepEqual(nextStep(0, [m("a1", { ready: false })]), { kind: "steady" }, "dormant");
  });

  it("removes an etcd member without an EtcdMember once the others are healthy, before scaling", () => {
    const stray = { name: "gone", id: "abc" };
    assert.deepEqual(nextStep(3, [m("a1"), m("a2")], [stray]), { kind: "removeStray", ...stray });
    assert.deepEqual(nextStep(1, [m("a1"), m("a2", { ready: false })], [stray]), {
      kind: "wait",
      reason: "member a2 is not healthy",
    });
    assert.deepEqual(nextStep(3, [m("a1"), m("a2", { deleting: true })], [stray]), {
      kind: "wait",
      reason: "member a2 is leaving",
    });
  });

  it("never grows a cluster with an unhealthy member", () => {
    const sick = m("a2", { etcd: { id: "y", learner: false, healthy: false } });
    assert.deepEqual(nextStep(3, [m("a1"), sick]), {
      kind: "wait",
      reason: "member a2 is not healthy",
    });
    assert.deepEqual(nextStep(3, [m("a1"), m("a2", { etcd: undefined })]), {
      kind: "wait",
      reason: "member a2 is not healthy",
    });
  });
});
