import assert from "node:assert/strict";
import { test } from "node:test";
import { AlreadyExistsError, NotFoundError, TimeoutError } from "../../api/index.js";
import { CriError, criError, GrpcCode } from "./cri-errors.js";

const subject = { resource: "containers", name: "3f1c" };
const ctx = { timeoutMs: 2000 };

test("NotFound becomes NotFoundError naming the object, with the gRPC error as cause", () => {
  const grpc = {
    code: GrpcCode.NOT_FOUND,
    details: 'container "3f1c" in namespace "k8s.io": not found',
  };
  const e = criError("ContainerStatus", grpc, subject, ctx);
  assert.ok(e instanceof NotFoundError);
  assert.equal(e.message, 'containers "3f1c" not found');
  assert.equal(e.cause, grpc);
});

test("NotFound of a call about no object (Version) stays a CriError", () => {
  const e = criError("Version", { code: GrpcCode.NOT_FOUND, details: "x" }, undefined, ctx);
  assert.ok(e instanceof CriError);
});

test("AlreadyExists and DeadlineExceeded map to their typed errors", () => {
  const exists = criError("RunPodSandbox", { code: GrpcCode.ALREADY_EXISTS }, subject, ctx);
  assert.ok(exists instanceof AlreadyExistsError);
  const slow = criError(
    "StopContainer",
    { code: GrpcCode.DEADLINE_EXCEEDED, details: "Deadline exceeded" },
    subject,
    ctx,
  );
  assert.ok(slow instanceof TimeoutError);
  assert.match(slow.message, /^Timeout: CRI StopContainer did not finish within 2000 ms/);
});

test("a call cancelled by its signal rejects with the signal's reason", () => {
  const abort = new AbortController();
  const reason = new Error("agent stopping");
  abort.abort(reason);
  const e = criError("ExecSync", { code: GrpcCode.CANCELLED }, subject, {
    ...ctx,
    signal: abort.signal,
  });
  assert.equal(e, reason);
  const notOurs = criError("ExecSync", { code: GrpcCode.CANCELLED, details: "x" }, subject, ctx);
  assert.ok(notOurs instanceof CriError, "a cancel we did not ask for is the runtime's error");
});

test("anything else is a CriError with the code and the runtime's message", () => {
  const e = criError(
    "RunPodSandbox",
    { code: GrpcCode.UNKNOWN, details: "failed to setup network" },
    subject,
    ctx,
  );
  assert.ok(e instanceof CriError);
  assert.equal(e.code, GrpcCode.UNKNOWN);
  assert.equal(e.message, "CRI RunPodSandbox failed: failed to setup network (gRPC UNKNOWN)");
  const down = criError(
    "Version",
    { code: GrpcCode.UNAVAILABLE, details: "No connection established" },
    undefined,
    ctx,
  );
  assert.ok(down instanceof CriError && down.unavailable);
});

test("statusText is the error as the kubelet shows it: Go's gRPC status wording", () => {
  const pull = new CriError(
    "PullImage",
    GrpcCode.UNKNOWN,
    'failed to pull and unpack image "x": not found',
  );
  assert.equal(
    pull.statusText,
    'rpc error: code = Unknown desc = failed to pull and unpack image "x": not found',
  );
  const codes = [GrpcCode.DEADLINE_EXCEEDED, GrpcCode.CANCELLED, GrpcCode.UNAUTHENTICATED, 99];
  assert.deepEqual(
    codes.map((c) => new CriError("PullImage", c, "d").statusText.split(" desc")[0]),
    [
      "rpc error: code = DeadlineExceeded",
      "rpc error: code = Canceled",
      "rpc error: code = Unauthenticated",
      "rpc error: code = Code(99)",
    ],
  );
});
