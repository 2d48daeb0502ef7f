/** Which pods hold a claim for pvc-protection, and the finalizer helpers. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { hasFinalizer, splitKey, withFinalizer } from "./names.js";
import { claimsOfPod, podUsesClaim } from "./protection.js";

const pod = (
  claims: string[],
  extra: { phase?: string; deletionTimestamp?: string; deletionGracePeriodSeconds?: number } = {},
): KubeObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    name: "p",
    namespace: "ns",
    ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}),
    ...(extra.deletionGracePeriodSeconds !== undefined
      ? { deletionGracePeriodSeconds: extra.deletionGracePeriodSeconds }
      : {}),
  },
  spec: {
    containers: [{ name: "c" }],
    volumes: [
      { name: "scratch", emptyDir: {} },
      ...claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } })),
    ],
  },
  ...(extra.phase ? { status: { phase: extra.phase } } : {}),
});

describe("podUsesClaim", () => {
  it("finds every claim a pod mounts, also with several", () => {
    assert.deepEqual(claimsOfPod(pod(["a", "b"])), ["a", "b"]);
    assert.deepEqual(claimsOfPod(pod([])), []);
    assert.equal(podUsesClaim(pod(["a", "b"]), "b"), true);
    assert.equal(podUsesClaim(pod(["a"]), "b"), false);
  });

  it("counts pending, running and terminating pods, also unscheduled ones", () => {
    assert.equal(podUsesClaim(pod(["a"]), "a"), true);
    assert.equal(podUsesClaim(pod(["a"], { phase: "Pending" }), "a"), true);
    assert.equal(podUsesClaim(pod(["a"], { phase: "Running" }), "a"), true);
    const stopping = {
      phase: "Running",
      deletionTimestamp: "2030-01-01T00:00:00Z",
      deletionGracePeriodSeconds: 30,
    };
    assert.equal(podUsesClaim(pod(["a"], stopping), "a"), true);
  });

  it("does not count pods that finished or were deleted with grace 0", () => {
    assert.equal(podUsesClaim(pod(["a"], { phase: "Succeeded" }), "a"), false);
    assert.equal(podUsesClaim(pod(["a"], { phase: "Failed" }), "a"), false);
    const gone = { deletionTimestamp: "2030-01-01T00:00:00Z", deletionGracePeriodSeconds: 0 };
    assert.equal(podUsesClaim(pod(["a"], gone), "a"), false);
  });
});

describe("finalizer helpers", () => {
  it("adds and removes one finalizer, keeping the others", () => {
    const obj: KubeObject = { apiVersion: "v1", kind: "X", metadata: { finalizers: ["a", "b"] } };
    assert.deepEqual(withFinalizer(obj, "a", false).metadata.finalizers, ["b"]);
    assert.deepEqual(withFinalizer(obj, "c", true).metadata.finalizers, ["a", "b", "c"]);
    assert.deepEqual(withFinalizer(obj, "a", true).metadata.finalizers, ["b", "a"]);
    assert.deepEqual(obj.metadata.finalizers, ["a", "b"], "the input is not changed");
    assert.equal(hasFinalizer(obj, "b"), true);
    assert.equal(hasFinalizer({ apiVersion: "v1", kind: "X", metadata: {} }, "b"), false);
  });

  it("splits namespace/name keys", () => {
    assert.deepEqual(splitKey("ns/name"), { namespace: "ns", name: "name" });
  });
});
