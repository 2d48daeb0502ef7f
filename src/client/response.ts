/**
 * Turns HTTP responses into values or typed errors at the client boundary: a
 * non-2xx reply becomes the ApiError its Status describes, or a generic ApiError
 * with the HTTP code when the body is not a Status (a proxy, a plain-text 404).
 */

import type { Status } from "../api/index.js";
import { ApiError, fromStatus } from "../api/index.js";
import { isStatus, type RawResponse } from "./interface.js";

/** The reason kube-apiserver gives each code (apimachinery `api/errors`). */
const REASONS: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  406: "NotAcceptable",
  409: "Conflict",
  410: "Expired",
  413: "RequestEntityTooLarge",
  415: "UnsupportedMediaType",
  422: "Invalid",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
  504: "Timeout",
};

export function reasonForCode(code: number): string {
  return REASONS[code] ?? "Unknown";
}

/** The ApiError for a Status, falling back to `code` when the Status carries none. */
export function errorFromStatus(status: Status, code: number): ApiError {
  return fromStatus({ ...status, code: status.code || code });
}

export function errorFromResponse(res: RawResponse, what: string): ApiError {
  const parsed = tryParseJson(res.body);
  if (isStatus(parsed)) return errorFromStatus(parsed, res.status);
  const text = res.body.trim().slice(0, 200);
  const message = `${what}: the server responded with status ${res.status}${text ? `: ${text}` : ""}`;
  return new ApiError(res.status, reasonForCode(res.status), message);
}

export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The decoded body of a 2xx response, or the ApiError of any other. */
export function decodeResponse<T>(res: RawResponse, what: string): T {
  if (res.status < 200 || res.status > 299) throw errorFromResponse(res, what);
  try {
    return JSON.parse(res.body) as T;
  } catch (cause) {
    throw new ApiError(
      500,
      "InternalError",
      `${what}: the server sent a body that is not JSON (status ${res.status})`,
      {},
      { cause },
    );
  }
}
