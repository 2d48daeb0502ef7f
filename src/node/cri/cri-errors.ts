/**
 * gRPC failures of a CRI call turned into typed errors at the boundary, as
 * kine does with its drivers' errors: NotFound → `NotFoundError`,
 * AlreadyExists → `AlreadyExistsError`, DeadlineExceeded → `TimeoutError`, a
 * call cancelled by its AbortSignal → the signal's reason; anything else is a
 * `CriError` carrying the gRPC code and the runtime's own message. The code is
 * read from the error object, never matched in message text.
 */
import { AlreadyExistsError, NotFoundError, TimeoutError } from "../../api/index.js";

/** gRPC status codes (grpc/status.h), so this file needs no gRPC import. */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

function codeName(code: number): string {
  return Object.entries(GrpcCode).find(([, v]) => v === code)?.[0] ?? `code ${code}`;
}

/** The name Go's gRPC gives a code (`codes.Code.String()`): Unknown, NotFound, DeadlineExceeded… */
function goCodeName(code: number): string {
  if (code === GrpcCode.OK) return "OK";
  if (code === GrpcCode.CANCELLED) return "Canceled";
  const name = Object.entries(GrpcCode).find(([, v]) => v === code)?.[0];
  if (name === undefined) return `Code(${code})`;
  return name.toLowerCase().replace(/(?:^|_)([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** What a call is about, for the typed error's message: `containers "3f1c…"`. */
export interface CriSubject {
  /** `containers`, `podsandboxes` or `images`. */
  resource: string;
  name?: string;
}

/** A CRI call the runtime refused or failed, with no better-typed error. */
export class CriError extends Error {
  constructor(
    readonly method: string,
    /** The gRPC status code (`GrpcCode`). */
    readonly code: number,
    /** The runtime's message (`details` of the gRPC status). */
    readonly details: string,
    options?: { cause?: unknown },
  ) {
    super(`CRI ${method} failed: ${details} (gRPC ${codeName(code)})`, options);
    this.name = "CriError";
  }

  /**
   * The failure as a Go gRPC client prints it, which is how the kubelet
   * reports a runtime's error in a status (`ErrImagePull`'s message):
   * `rpc error: code = Unknown desc = failed to pull and unpack image …`.
   */
  get statusText(): string {
    return `rpc error: code = ${goCodeName(this.code)} desc = ${this.details}`;
  }

  /** True when the runtime could not be reached (socket missing, containerd down). */
  get unavailable(): boolean {
    return this.code === GrpcCode.UNAVAILABLE;
  }
}

/** The fields of a grpc-js `ServiceError` this mapping reads. */
export interface GrpcFailure {
  code?: number;
  details?: string;
  message?: string;
}

export function criError(
  method: string,
  err: GrpcFailure,
  subject: CriSubject | undefined,
  context: { signal?: AbortSignal; timeoutMs: number },
): Error {
  const code = typeof err.code === "number" ? err.code : GrpcCode.UNKNOWN;
  const details = err.details ?? err.message ?? String(err);
  const ref = { group: "", resource: subject?.resource ?? "", name: subject?.name };
  if (code === GrpcCode.CANCELLED && context.signal?.aborted) {
    const reason: unknown = context.signal.reason;
    return reason instanceof Error ? reason : new Error(String(reason), { cause: err });
  }
  if (code === GrpcCode.NOT_FOUND && subject) return new NotFoundError(ref, { cause: err });
  if (code === GrpcCode.ALREADY_EXISTS && subject)
    return new AlreadyExistsError(ref, { cause: err });
  if (code === GrpcCode.DEADLINE_EXCEEDED)
    return new TimeoutError(
      `CRI ${method} did not finish within ${context.timeoutMs} ms: ${details}`,
      0,
      [],
      { cause: err },
    );
  return new CriError(method, code, details, { cause: err });
}
