/**
 * The request deadline, as kube-apiserver's `WithRequestDeadline` and
 * `WithTimeoutForNonLongRunningRequests` filters: every request that is not
 * long-running is bounded by the `timeout` query parameter (a Go duration),
 * clamped to the server's `--request-timeout` (60 s by default, also when
 * `timeout` is absent, zero or negative). A value that does not parse is a 400
 * before authentication. A request still running at its deadline is answered
 * with a 504 `Timeout` Status and whatever it writes afterwards is dropped,
 * while its work goes on — "may still be processing the request".
 *
 * Long-running requests are exempt: a watch is bounded by `timeoutSeconds`
 * only (kube ignores `timeout` there: "Currently we explicitly ignore
 * ?timeout= and use only ?timeoutSeconds="), and pod `log` (like exec, attach,
 * portforward, proxy) streams for as long as it needs.
 */
import type { ServerResponse } from "node:http";
import { ApiError, BadRequestError } from "../../api/index.js";
import { DurationError, parseGoDuration } from "./go-duration.js";
import type { RequestInfo } from "./request-info.js";
import { sendError } from "./respond.js";

/** kube-apiserver's `--request-timeout` default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** kube's `BasicLongRunningRequestCheck(watch, proxy; attach, exec, proxy, log, portforward)`. */
const LONG_RUNNING_SUBRESOURCES = new Set(["attach", "exec", "proxy", "log", "portforward"]);

export function isLongRunning(info: RequestInfo | undefined): boolean {
  if (!info) return false;
  if (info.verb === "watch" || info.verb === "proxy") return true;
  return info.subresource !== undefined && LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}

/**
 * How long the request may run, in ms, or undefined for a long-running one.
 * Throws kube's 400 for a `timeout` that is not a Go duration.
 */
export function requestDeadlineMs(
  info: RequestInfo | undefined,
  query: URLSearchParams,
  maximumMs: number,
): number | undefined {
  if (isLongRunning(info)) return undefined;
  const value = query.get("timeout");
  if (value === null || value === "") return maximumMs;
  let nanoseconds: bigint;
  try {
    nanoseconds = parseGoDuration(value);
  } catch (e) {
    if (!(e instanceof DurationError)) throw e;
    throw new BadRequestError(`invalid timeout specified in the request URL - ${e.message}`);
  }
  const ms = Number(nanoseconds) / 1e6;
  return ms > 0 && ms < maximumMs ? ms : maximumMs;
}

/**
 * kube's 504: the finisher's words for a write (it times out inside the
 * handler), the timeout filter's generic ones for anything else.
 */
export function timeoutError(method: string, info: RequestInfo | undefined): ApiError {
  if (info && ["create", "update", "patch", "delete", "deletecollection"].includes(info.verb))
    return new ApiError(
      504,
      "Timeout",
      "Timeout: request did not complete within requested timeout - context deadline exceeded",
    );
  const resource = info ? (info.group ? `${info.resource}.${info.group}` : info.resource) : "";
  const base =
    "the server was unable to return a response in the time allotted, but may still be processing the request";
  return new ApiError(
    504,
    "Timeout",
    resource ? `${base} (${method.toLowerCase()} ${resource})` : base,
    info ? { group: info.group, kind: info.resource } : {},
  );
}

/** After the 504 has gone out, the late handler's writes go nowhere, as kube's timeoutWriter. */
function silence(res: ServerResponse): void {
  const dropped = { writeHead: () => res, write: () => true, end: () => res, destroy: () => res };
  Object.assign(res, dropped);
}

/** Runs `work`, answering 504 if it has not finished within `ms`. */
export async function withDeadline(
  res: ServerResponse,
  ms: number,
  expired: () => ApiError,
  work: () => Promise<void>,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"expired">((resolve) => {
    timer = setTimeout(() => resolve("expired"), Math.max(0, ms));
  });
  const outcome = await Promise.race([work().then(() => "done" as const), deadline]);
  clearTimeout(timer);
  if (outcome === "done") return;
  if (res.headersSent) {
    // Part of the answer is out: as kube, abort the connection rather than finish it wrongly.
    res.destroy();
  } else {
    sendError(res, expired());
  }
  silence(res);
}
