/** refOf, ignoreNotFound, getOptional and errorText. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeList, KubeObject } from "../api/index.js";
import { ApiError, ConflictError, NotFoundError } from "../api/index.js";
import { errorText, getOptional, ignoreNotFound, isNotFound, refOf } from "./call-helpers.js";
import type { ObjectRef, Reader } from "./interface.js";

const cm: KubeObject = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "x", namespace: "d", uid: "u" },
};
const missing = new NotFoundError({ group: "", resource: "configmaps", name: "y" });

/** Holds `cm`; any other name is a 404, the name "boom" a 500. */
const reader: Reader = {
  async get<T extends KubeObject>(ref: ObjectRef) {
    if (ref.name === "boom") throw new ApiError(500, "InternalError", "storage is down");
    if (ref.name !== cm.metadata.name) throw missing;
    return cm as T;
  },
  async list<T extends KubeObject>() {
    return { apiVersion: "v1", kind: "List", metadata: {}, items: [] } as KubeList<T>;
  },
};

describe("refOf", () => {
  it("names a namespaced object and a cluster-scoped one", () => {
    assert.deepEqual(refOf(cm), { apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "d" });
    const ns = { apiVersion: "v1", kind: "Namespace", metadata: { name: "d" } };
    assert.deepEqual(refOf(ns), { apiVersion: "v1", kind: "Namespace", name: "d" });
  });
});

describe("ignoreNotFound", () => {
  it("resolves to the value, or to undefined on a 404", async () => {
    assert.equal(await ignoreNotFound(Promise.resolve(7)), 7);
    assert.equal(await ignoreNotFound(Promise.reject(missing)), undefined);
  });

  it("rethrows a 409, a 500 and a network error", async () => {
    const conflict = new ConflictError({ group: "", resource: "configmaps", name: "x" }, "stale");
    await assert.rejects(ignoreNotFound(Promise.reject(conflict)), conflict);
    const internal = new ApiError(500, "InternalError", "storage is down");
    await assert.rejects(ignoreNotFound(Promise.reject(internal)), internal);
    const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    await assert.rejects(ignoreNotFound(Promise.reject(reset)), reset);
  });

  it("treats only a 404 ApiError as not found", () => {
    assert.equal(isNotFound(missing), true);
    assert.equal(isNotFound(new Error("404")), false);
    assert.equal(isNotFound({ code: 404 }), false);
  });
});

describe("getOptional", () => {
  it("returns the object, undefined when absent, and rethrows other errors", async () => {
    assert.equal(await getOptional(reader, refOf(cm)), cm);
    assert.equal(await getOptional(reader, { ...refOf(cm), name: "y" }), undefined);
    await assert.rejects(getOptional(reader, { ...refOf(cm), name: "boom" }), /storage is down/);
  });
});

describe("errorText", () => {
  it("gives the message of an ApiError and an Error, a string as is, anything else as text", () => {
    assert.equal(errorText(missing), 'configmaps "y" not found');
    assert.equal(errorText(new Error("socket hang up")), "socket hang up");
    assert.equal(errorText("plain"), "plain");
    assert.equal(errorText(42), "42");
    assert.equal(errorText(undefined), "undefined");
  });
});
