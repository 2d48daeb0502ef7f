/** applyJsonPatch: RFC 6902 operations, kube's 400/413/422 outcomes, no mutation of the input. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import { applyJsonPatch, PATCH_REJECTED_MESSAGE } from "./json-patch.js";

const configMap = (): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "cm", labels: { app: "web" } },
  data: { a: "1", b: "2" },
  list: ["x", "y"],
});

function rejects(patch: unknown, code: number, message?: string): ApiError {
  let caught: unknown;
  try {
    applyJsonPatch(configMap(), patch);
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof ApiError, `expected an ApiError, got ${String(caught)}`);
  assert.equal(caught.code, code);
  if (message !== undefined) assert.equal(caught.message, message);
  return caught;
}

describe("applyJsonPatch", () => {
  it("applies add, replace, remove, move, copy and test in order", () => {
    const current = configMap();
    const out = applyJsonPatch(current, [
      { op: "test", path: "/data/a", value: "1" },
      { op: "add", path: "/data/c", value: "3" },
      { op: "replace", path: "/data/a", value: "one" },
      { op: "remove", path: "/data/b" },
      { op: "move", from: "/metadata/labels/app", path: "/metadata/labels/tier" },
      { op: "copy", from: "/data/c", path: "/data/d" },
      { op: "add", path: "/list/-", value: "z" },
      { op: "add", path: "/list/0", value: "w" },
    ]);
    assert.deepEqual(out, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "cm", labels: { tier: "web" } },
      data: { a: "one", c: "3", d: "3" },
      list: ["w", "x", "y", "z"],
    });
    assert.deepEqual(current, configMap(), "the input is not modified");
  });

  it("copies values, so the copy and its source are independent", () => {
    const out = applyJsonPatch(configMap(), [
      { op: "copy", from: "/metadata/labels", path: "/data/labels" },
      { op: "add", path: "/data/labels/more", value: "x" },
    ]);
    assert.deepEqual(out.metadata.labels, { app: "web" });
    assert.deepEqual(out.data, { a: "1", b: "2", labels: { app: "web", more: "x" } });
  });

  it("rejects a failed test with kube's 422 and keeps the reason as the cause", () => {
    const err = rejects([{ op: "test", path: "/data/a", value: "2" }], 422, PATCH_REJECTED_MESSAGE);
    assert.equal(err.reason, "Invalid");
    assert.ok(err.cause instanceof Error);
    assert.match(err.cause.message, /Test operation failed/);
    assert.deepEqual(err.toStatus(), {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "the server rejected our request due to an error in our request",
      reason: "Invalid",
      code: 422,
    });
  });

  it("rejects operations that do not apply to the document with 422", () => {
    rejects([{ op: "replace", path: "/spec/x", value: 1 }], 422);
    rejects([{ op: "remove", path: "/data/zzz" }], 422);
    rejects([{ op: "add", path: "/nothing/below", value: 1 }], 422);
    rejects([{ op: "move", from: "/data/zzz", path: "/data/y" }], 422);
    rejects([{ op: "add", path: "/list/9", value: 1 }], 422);
  });

  it("rejects unknown or incomplete operations with 422, as kube does", () => {
    rejects([{ op: "frobnicate", path: "/data/a" }], 422);
    rejects([{ op: "add", path: "/data/x" }], 422);
    rejects([null], 422);
    rejects([{ op: "add", path: "/__proto__/polluted", value: 1 }], 422);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it("rejects a body that is not a list of operation objects with 400", () => {
    const err = rejects(
      { op: "add" },
      400,
      "json: cannot unmarshal object into Go value of type jsonpatch.Patch",
    );
    assert.equal(err.reason, "BadRequest");
    rejects("x", 400, "json: cannot unmarshal string into Go value of type jsonpatch.Patch");
    rejects(
      [{ op: "add", path: "/a", value: 1 }, 5],
      400,
      "json: cannot unmarshal number into Go value of type jsonpatch.Operation",
    );
  });

  it("treats a null body as an empty patch", () => {
    assert.deepEqual(applyJsonPatch(configMap(), null), configMap());
    assert.deepEqual(applyJsonPatch(configMap(), []), configMap());
  });

  it("refuses more than 10000 operations with 413", () => {
    const ops = Array.from({ length: 10001 }, () => ({
      op: "test",
      path: "/kind",
      value: "ConfigMap",
    }));
    rejects(ops, 413, "The allowed maximum operations in a JSON patch is 10000, got 10001");
  });

  it("refuses to replace the object with something that is not an object", () => {
    rejects([{ op: "replace", path: "", value: 5 }], 422);
  });
});
