/**
 * The typed API errors: each one's code, reason, message and details as
 * kube-apiserver writes its Status, the Status round trip a client rebuilds,
 * and the field-error helpers every validator uses.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  AlreadyExistsError,
  type ApiError,
  BadRequestError,
  ConflictError,
  ExpiredError,
  ForbiddenError,
  formatValue,
  fromStatus,
  hasCode,
  InternalError,
  InvalidError,
  invalidValue,
  isApiError,
  MethodNotAllowedError,
  NotFoundError,
  qualifiedResource,
  requiredValue,
  STALE_OBJECT_MESSAGE,
  TooLargeResourceVersionError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from "./errors.js";

const core = { group: "", resource: "configmaps", name: "cfg" };
const grouped = { group: "apps.cozystack.io", resource: "tenants", name: "a" };

describe("ApiError kinds", () => {
  const cases: {
    error: ApiError;
    code: number;
    reason: string;
    message: string;
    details?: object;
  }[] = [
    {
      error: new NotFoundError(core),
      code: 404,
      reason: "NotFound",
      message: 'configmaps "cfg" not found',
      details: { name: "cfg", group: "", kind: "configmaps" },
    },
    {
      error: new NotFoundError(grouped),
      code: 404,
      reason: "NotFound",
      message: 'tenants.apps.cozystack.io "a" not found',
      details: { name: "a", group: "apps.cozystack.io", kind: "tenants" },
    },
    {
      error: new AlreadyExistsError(core),
      code: 409,
      reason: "AlreadyExists",
      message: 'configmaps "cfg" already exists',
    },
    {
      error: new ConflictError(grouped, STALE_OBJECT_MESSAGE),
      code: 409,
      reason: "Conflict",
      message: `Operation cannot be fulfilled on tenants.apps.cozystack.io "a": ${STALE_OBJECT_MESSAGE}`,
    },
    {
      error: new ForbiddenError(
        { group: "", resource: "namespaces", name: "tenant-a" },
        'it belongs to Tenant "a"',
      ),
      code: 403,
      reason: "Forbidden",
      message: 'namespaces "tenant-a" is forbidden: it belongs to Tenant "a"',
    },
    {
      error: new ForbiddenError({ group: "", resource: "pods" }, "no"),
      code: 403,
      reason: "Forbidden",
      message: 'pods "" is forbidden: no',
      details: { group: "", kind: "pods" },
    },
    {
      error: new ExpiredError("too old resource version: 1 (5)"),
      code: 410,
      reason: "Expired",
      message: "too old resource version: 1 (5)",
      details: {},
    },
    {
      error: new TooLargeResourceVersionError(10, 4, 1),
      code: 504,
      reason: "Timeout",
      message: "Timeout: Too large resource version: 10, current: 4",
      details: {
        causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
        retryAfterSeconds: 1,
      },
    },
    {
      error: new TooLargeResourceVersionError(10, 4, 0),
      code: 504,
      reason: "Timeout",
      message: "Timeout: Too large resource version: 10, current: 4",
      details: {
        causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
      },
    },
    {
      error: new BadRequestError("bad"),
      code: 400,
      reason: "BadRequest",
      message: "bad",
      details: {},
    },
    { error: new UnauthorizedError(), code: 401, reason: "Unauthorized", message: "Unauthorized" },
    {
      error: new MethodNotAllowedError("no"),
      code: 405,
      reason: "MethodNotAllowed",
      message: "no",
    },
    {
      error: new UnsupportedMediaTypeError("application/json"),
      code: 415,
      reason: "UnsupportedMediaType",
      message:
        "the body of the request was in an unknown format - accepted media types include: application/json",
    },
    {
      error: new InternalError("disk"),
      code: 500,
      reason: "InternalError",
      message: "Internal error occurred: disk",
    },
  ];
  for (const c of cases) {
    it(`${c.reason}: ${c.message.slice(0, 60)}`, () => {
      assert.equal(c.error.code, c.code);
      assert.equal(c.error.reason, c.reason);
      assert.equal(c.error.name, c.reason);
      assert.equal(c.error.message, c.message);
      if (c.details) assert.deepEqual(c.error.details, c.details);
      assert.ok(isApiError(c.error));
      assert.ok(hasCode(c.error, c.code));
      assert.ok(!hasCode(c.error, c.code + 1));
      const status = c.error.toStatus();
      assert.equal(status.kind, "Status");
      assert.equal(status.status, "Failure");
      assert.equal(status.code, c.code);
      const back = fromStatus(status);
      assert.deepEqual(
        [back.code, back.reason, back.message, back.details],
        [c.error.code, c.error.reason, c.error.message, c.error.details],
        "a client rebuilds the same error from the Status",
      );
    });
  }

  it("omits empty details from the Status, and keeps the cause", () => {
    const cause = new Error("disk full");
    const e = new BadRequestError("bad", { cause });
    assert.equal("details" in e.toStatus(), false);
    assert.equal(e.cause, cause);
  });

  it("rebuilds a Status without reason or message as Unknown", () => {
    const e = fromStatus({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      code: 503,
    });
    assert.deepEqual([e.code, e.reason, e.message], [503, "Unknown", ""]);
    assert.equal(hasCode(new Error("plain"), 503), false);
    assert.equal(isApiError({ code: 404 }), false);
  });
});

describe("InvalidError", () => {
  it("names one field error inline, with details and causes as kube", () => {
    const e = new InvalidError({ group: "", kind: "ConfigMap", name: "x" }, [
      invalidValue("metadata.name", "X", "must be lower case"),
    ]);
    assert.equal(e.code, 422);
    assert.equal(e.reason, "Invalid");
    assert.equal(
      e.message,
      'ConfigMap "x" is invalid: metadata.name: Invalid value: "X": must be lower case',
    );
    assert.deepEqual(e.details, {
      name: "x",
      group: "",
      kind: "ConfigMap",
      causes: [
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: "X": must be lower case',
          field: "metadata.name",
        },
      ],
    });
  });

  it("lists several field errors in brackets, and qualifies a grouped kind", () => {
    const e = new InvalidError({ group: "batch", kind: "Job" }, [
      requiredValue("spec.template"),
      requiredValue("spec.selector", "must be set"),
      { reason: "FieldValueInvalid", field: "", detail: "a message without a field" },
    ]);
    assert.equal(
      e.message,
      'Job.batch "" is invalid: [spec.template: Required value, spec.selector: Required value: must be set, a message without a field]',
    );
    assert.equal(e.details.name, undefined);
    assert.equal(e.errors.length, 3);
  });
});

describe("field-error helpers", () => {
  const values: [unknown, string][] = [
    ["x", '"x"'],
    ['q"uote', '"q\\"uote"'],
    [5, "5"],
    [true, "true"],
    [undefined, "null"],
    [null, "null"],
    [[1, 2], "[]"],
    [{ a: 1 }, '"object"'],
  ];
  for (const [v, want] of values) {
    it(`formats ${JSON.stringify(v) ?? "undefined"} as ${want}`, () =>
      assert.equal(formatValue(v), want));
  }

  it("qualifies a resource by its group", () => {
    assert.equal(qualifiedResource({ group: "", resource: "pods" }), "pods");
    assert.equal(qualifiedResource({ group: "batch", resource: "jobs" }), "jobs.batch");
  });
});
