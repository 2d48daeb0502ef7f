/**
 * The typed errors every layer throws, each one a Kubernetes `Status` in waiting.
 * Messages follow kube-apiserver's wording (apimachinery `api/errors`), because
 * users and tools match on them.
 */
import type { Status, StatusCause, StatusDetails } from "./types.js";

/** Names the resource an error is about: `crontabs.stable.example.com "x"`. */
export interface ResourceRef {
  group: string;
  /** The resource plural, e.g. `configmaps`. */
  resource: string;
  name?: string;
}

export function qualifiedResource(ref: { group: string; resource: string }): string {
  return ref.group === "" ? ref.resource : `${ref.resource}.${ref.group}`;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details: StatusDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = reason;
  }

  toStatus(): Status {
    const details = Object.keys(this.details).length > 0 ? this.details : undefined;
    return {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: this.message,
      reason: this.reason,
      ...(details ? { details } : {}),
      code: this.code,
    };
  }
}

function refDetails(ref: ResourceRef): StatusDetails {
  return {
    ...(ref.name !== undefined ? { name: ref.name } : {}),
    group: ref.group,
    kind: ref.resource,
  };
}

export class NotFoundError extends ApiError {
  constructor(ref: ResourceRef, options?: { cause?: unknown }) {
    super(
      404,
      "NotFound",
      `${qualifiedResource(ref)} "${ref.name ?? ""}" not found`,
      refDetails(ref),
      options,
    );
  }
}

export class AlreadyExistsError extends ApiError {
  constructor(ref: ResourceRef, options?: { cause?: unknown }) {
    super(
      409,
      "AlreadyExists",
      `${qualifiedResource(ref)} "${ref.name ?? ""}" already exists`,
      refDetails(ref),
      options,
    );
  }
}

export class ConflictError extends ApiError {
  constructor(ref: ResourceRef, why: string, options?: { cause?: unknown }) {
    super(
      409,
      "Conflict",
      `Operation cannot be fulfilled on ${qualifiedResource(ref)} "${ref.name ?? ""}": ${why}`,
      refDetails(ref),
      options,
    );
  }
}

export const STALE_OBJECT_MESSAGE =
  "the object has been modified; please apply your changes to the latest version and try again";

/** One field error, as in apimachinery's `field.Error`. */
export interface FieldError {
  /** `FieldValueRequired`, `FieldValueInvalid`, `FieldValueNotSupported`, `FieldValueForbidden`, `FieldValueDuplicate`, `FieldValueTooLong`, `FieldValueTypeInvalid`. */
  reason: string;
  field: string;
  /** The text after `field: `, e.g. `Invalid value: "X": must be lower case`. */
  detail: string;
}

export function fieldErrorMessage(e: FieldError): string {
  return e.field === "" ? e.detail : `${e.field}: ${e.detail}`;
}

/** `Invalid value: <json>: <why>` — the common field error body. */
export function invalidValue(field: string, value: unknown, why: string): FieldError {
  return {
    reason: "FieldValueInvalid",
    field,
    detail: `Invalid value: ${formatValue(value)}: ${why}`,
  };
}

export function requiredValue(field: string, why = ""): FieldError {
  return {
    reason: "FieldValueRequired",
    field,
    detail: why ? `Required value: ${why}` : "Required value",
  };
}

export function forbiddenValue(field: string, why: string): FieldError {
  return { reason: "FieldValueForbidden", field, detail: `Forbidden: ${why}` };
}

export function formatValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === undefined) return "null";
  if (typeof value === "object" && value !== null) return Array.isArray(value) ? "[]" : '"object"';
  return String(value);
}

export class InvalidError extends ApiError {
  readonly errors: FieldError[];
  /** `kind` is the Kind (not the plural), as kube-apiserver reports for Invalid. */
  constructor(
    kindRef: { group: string; kind: string; name?: string },
    errors: FieldError[],
    options?: { cause?: unknown },
  ) {
    const qualified = kindRef.group === "" ? kindRef.kind : `${kindRef.kind}.${kindRef.group}`;
    const messages = errors.map(fieldErrorMessage);
    const body = messages.length === 1 ? messages[0] : `[${messages.join(", ")}]`;
    const causes: StatusCause[] = errors.map((e) => ({
      reason: e.reason,
      message: e.detail,
      field: e.field,
    }));
    super(
      422,
      "Invalid",
      `${qualified} "${kindRef.name ?? ""}" is invalid: ${body}`,
      {
        ...(kindRef.name !== undefined ? { name: kindRef.name } : {}),
        group: kindRef.group,
        kind: kindRef.kind,
        causes,
      },
      options,
    );
    this.errors = errors;
  }
}

export class ForbiddenError extends ApiError {
  constructor(ref: ResourceRef, why: string, options?: { cause?: unknown }) {
    super(
      403,
      "Forbidden",
      `${qualifiedResource(ref)} "${ref.name ?? ""}" is forbidden: ${why}`,
      refDetails(ref),
      options,
    );
  }
}

export class ExpiredError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(410, "Expired", message, {}, options);
  }
}

/**
 * 504 Timeout, as apimachinery's `NewTimeoutError`: the message is prefixed
 * `Timeout: `; `retryAfterSeconds` (when > 0) tells the client when to retry.
 */
export class TimeoutError extends ApiError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    causes: StatusCause[] = [],
    options?: { cause?: unknown },
  ) {
    super(
      504,
      "Timeout",
      `Timeout: ${message}`,
      {
        ...(causes.length > 0 ? { causes } : {}),
        ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
      },
      options,
    );
  }
}

/**
 * A read asked for a resourceVersion newer than any the server has, still after
 * waiting for it (apiserver storage's `NewTooLargeResourceVersionError`).
 */
export class TooLargeResourceVersionError extends TimeoutError {
  constructor(requested: number, current: number, retryAfterSeconds: number) {
    super(`Too large resource version: ${requested}, current: ${current}`, retryAfterSeconds, [
      { reason: "ResourceVersionTooLarge", message: "Too large resource version" },
    ]);
  }
}

/**
 * 429 TooManyRequests, as apimachinery's `NewTooManyRequests`: `retryAfterSeconds`
 * only when > 0; `causes` name what refused (an eviction: the DisruptionBudget).
 */
export class TooManyRequestsError extends ApiError {
  constructor(
    message: string,
    retryAfterSeconds = 0,
    causes: StatusCause[] = [],
    options?: { cause?: unknown },
  ) {
    super(
      429,
      "TooManyRequests",
      message,
      {
        ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
        ...(causes.length > 0 ? { causes } : {}),
      },
      options,
    );
  }
}

export class BadRequestError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(400, "BadRequest", message, {}, options);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(options?: { cause?: unknown }) {
    super(401, "Unauthorized", "Unauthorized", {}, options);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(405, "MethodNotAllowed", message, {}, options);
  }
}

export class NotAcceptableError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(406, "NotAcceptable", message, {}, options);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor(contentType: string, options?: { cause?: unknown }) {
    super(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: ${contentType}`,
      {},
      options,
    );
  }
}

export class RequestEntityTooLargeError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(413, "RequestEntityTooLarge", message, {}, options);
  }
}

export class InternalError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(500, "InternalError", `Internal error occurred: ${message}`, {}, options);
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** True when `e` is an ApiError with that code (works on errors rebuilt from a Status). */
export function hasCode(e: unknown, code: number): boolean {
  return isApiError(e) && e.code === code;
}

/** Rebuilds an error from a Status received over the wire. */
export function fromStatus(status: Status): ApiError {
  return new ApiError(
    status.code,
    status.reason ?? "Unknown",
    status.message ?? "",
    status.details ?? {},
  );
}
