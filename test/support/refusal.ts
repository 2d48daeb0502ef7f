/**
 * The one check of "refused, and nothing written" that the bad-input tests
 * share: the answer is the expected `Status` (code, reason, message, field
 * causes), the storage revision did not move, and the server still answers.
 */
import assert from "node:assert/strict";

export interface StatusBody {
  kind: string;
  reason: string;
  message: string;
  code: number;
  details?: {
    kind?: string;
    group?: string;
    causes?: { field?: string; reason?: string; message?: string }[];
    retryAfterSeconds?: number;
  };
}

export interface Refusal {
  code: number;
  reason: string;
  /** A string must equal the message; a pattern must match it. */
  message?: string | RegExp;
  /** The fields of all causes, in order. */
  fields?: string[];
  /** The field of the first cause. */
  field?: string;
}

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

export interface RefusalTarget {
  backend: { currentRevision(): Promise<number> };
  /** Resolves to the status of `/healthz`. */
  health(): Promise<number>;
}

/** Sends what `send` sends, which must be refused as `expect` says; `what` names it in failures. */
export async function expectRefused(
  target: RefusalTarget,
  what: string,
  send: () => Promise<Answer>,
  expect: Refusal,
): Promise<StatusBody> {
  const before = await target.backend.currentRevision();
  const r = await send();
  const context = `${what}: ${r.text.slice(0, 500)}`;
  assert.equal(r.status, expect.code, context);
  const status = r.body as StatusBody;
  assert.equal(status.kind, "Status", context);
  assert.equal(status.code, expect.code, context);
  assert.equal(status.reason, expect.reason, context);
  if (typeof expect.message === "string") assert.equal(status.message, expect.message, context);
  else if (expect.message) assert.match(status.message, expect.message, context);
  const causes = (status.details?.causes ?? []).map((c) => c.field);
  if (expect.fields) assert.deepEqual(causes, expect.fields, context);
  if (expect.field) assert.equal(causes[0], expect.field, context);
  assert.equal(await target.backend.currentRevision(), before, `${what} was refused but wrote`);
  assert.equal(await target.health(), 200, `the server does not answer after ${what}`);
  return status;
}
