/** Mapping of HTTP responses to values and ApiErrors. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "../api/index.js";
import { decodeResponse, errorFromResponse } from "./response.js";

const res = (status: number, body: string) => ({ status, headers: {}, body });

describe("errorFromResponse", () => {
  it("rebuilds the ApiError a Status describes", () => {
    const status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'configmaps "x" not found',
      reason: "NotFound",
      details: { name: "x", kind: "configmaps" },
      code: 404,
    };
    const err = errorFromResponse(res(404, JSON.stringify(status)), "cannot get");
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 404);
    assert.equal(err.reason, "NotFound");
    assert.equal(err.message, 'configmaps "x" not found');
    assert.deepEqual(err.details, { name: "x", kind: "configmaps" });
  });

  it("takes the HTTP code when the Status carries none", () => {
    const body = JSON.stringify({
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      reason: "X",
    });
    assert.equal(errorFromResponse(res(503, body), "w").code, 503);
  });

  it("builds a generic ApiError from a body that is not a Status", () => {
    const err = errorFromResponse(res(502, "Bad Gateway\n"), "cannot list ConfigMap");
    assert.equal(err.code, 502);
    assert.equal(err.reason, "Unknown");
    assert.equal(
      err.message,
      "cannot list ConfigMap: the server responded with status 502: Bad Gateway",
    );
    const forbidden = errorFromResponse(res(403, '{"error":"no"}'), "w");
    assert.equal(forbidden.reason, "Forbidden");
  });
});

describe("decodeResponse", () => {
  it("parses 2xx bodies", () => {
    assert.deepEqual(decodeResponse(res(201, '{"a":1}'), "w"), { a: 1 });
  });

  it("throws the error of non-2xx replies", () => {
    assert.throws(() => decodeResponse(res(409, "{}"), "w"), { code: 409, reason: "Conflict" });
  });

  it("refuses a 2xx body that is not JSON", () => {
    assert.throws(() => decodeResponse(res(200, "<html>"), "cannot get x"), {
      code: 500,
      message: /cannot get x: the server sent a body that is not JSON/,
    });
  });
});
