/**
 * The query parameters of GET, LIST and WATCH, parsed and validated before
 * anything is read, as kube-apiserver does: conversion first (a number that
 * does not parse is a 400 with strconv's words, a boolean is false only for
 * "0"/"false"), then `ValidateListOptions` (422 Invalid on ListOptions), then
 * the storage checks of resourceVersion and continue (400).
 */
import { BadRequestError, type FieldError, forbiddenValue, InvalidError } from "../../api/index.js";
import { queryFlag } from "../http/request-info.js";

export type ResourceVersionMatch = "Exact" | "NotOlderThan";

export interface ListOptions {
  /** Items per page; absent when not paging (kube pages only for a limit > 0). */
  limit?: number;
  continue?: string;
  /** The requested resourceVersion: absent, 0 ("any") or a revision. */
  resourceVersion?: number;
  resourceVersionMatch?: ResourceVersionMatch;
  /** Seconds until a watch ends; absent for the server's default, ≤ 0 ends it at once. */
  timeoutSeconds?: number;
  allowWatchBookmarks: boolean;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's `strconv.ParseInt(s, 10, 64)`, clamped to JS's safe range once in range. */
export function parseInt64(raw: string): number {
  if (!/^[+-]?[0-9]+$/.test(raw))
    throw new BadRequestError(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  const n = BigInt(raw);
  if (n < INT64_MIN || n > INT64_MAX)
    throw new BadRequestError(
      `strconv.ParseInt: parsing ${JSON.stringify(raw)}: value out of range`,
    );
  return Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Number(n)));
}

/**
 * A resourceVersion as the storage versioner reads it (`strconv.ParseUint`):
 * "" and "0" are 0; anything else must be an unsigned integer, or the read is a
 * 400 "invalid resource version".
 */
export function parseResourceVersion(raw: string | null): number | undefined {
  if (raw === null || raw === "") return undefined;
  const why = /^[0-9]+$/.test(raw)
    ? BigInt(raw) > UINT64_MAX
      ? "value out of range"
      : undefined
    : "invalid syntax";
  if (why !== undefined)
    throw new BadRequestError(
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(raw)}: strconv.ParseUint: parsing ${JSON.stringify(raw)}: ${why}`,
    );
  // Beyond 2^53 a revision cannot exist yet; it stays "too large", never rounds down to an old one.
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}

/** The options of a LIST (`watch` false) or a WATCH, refused before any read. */
export function parseListOptions(query: URLSearchParams, watch: boolean): ListOptions {
  const limitRaw = query.get("limit");
  const limit = limitRaw === null ? 0 : parseInt64(limitRaw);
  const timeoutRaw = query.get("timeoutSeconds");
  const timeoutSeconds = timeoutRaw === null ? undefined : parseInt64(timeoutRaw);
  const rvRaw = query.get("resourceVersion") ?? "";
  const match = query.get("resourceVersionMatch") ?? "";
  const cont = query.get("continue") ?? "";
  const sendInitialEvents = query.get("sendInitialEvents") !== null;
  const errs = watch
    ? watchOptionErrors(match, cont, sendInitialEvents)
    : listOptionErrors(match, rvRaw, cont, sendInitialEvents);
  if (errs.length > 0) throw new InvalidError({ group: "meta.k8s.io", kind: "ListOptions" }, errs);
  const resourceVersion = parseResourceVersion(rvRaw);
  if (cont !== "" && resourceVersion !== undefined && rvRaw !== "0")
    throw new BadRequestError("specifying resource version is not allowed when using continue");
  return {
    ...(limit > 0 ? { limit } : {}),
    ...(cont !== "" ? { continue: cont } : {}),
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
    ...(match !== "" ? { resourceVersionMatch: match as ResourceVersionMatch } : {}),
    ...(timeoutSeconds !== undefined && timeoutSeconds !== 0 ? { timeoutSeconds } : {}),
    allowWatchBookmarks: queryFlag(query, "allowWatchBookmarks"),
  };
}

function listOptionErrors(
  match: string,
  rv: string,
  cont: string,
  sendInitialEvents: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  if (match !== "") {
    if (rv === "")
      errs.push(
        forbiddenValue(
          "resourceVersionMatch",
          "resourceVersionMatch is forbidden unless resourceVersion is provided",
        ),
      );
    if (cont !== "")
      errs.push(
        forbiddenValue(
          "resourceVersionMatch",
          "resourceVersionMatch is forbidden when continue is provided",
        ),
      );
    if (match !== "Exact" && match !== "NotOlderThan")
      errs.push(notSupported("resourceVersionMatch", match, ["Exact", "NotOlderThan", ""]));
    if (match === "Exact" && rv === "0")
      errs.push(
        forbiddenValue(
          "resourceVersionMatch",
          'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        ),
      );
  }
  if (sendInitialEvents)
    errs.push(forbiddenValue("sendInitialEvents", "sendInitialEvents is forbidden for list"));
  return errs;
}

/** As kube with the WatchList feature off: Hearth serves no watch-list streams. */
function watchOptionErrors(match: string, cont: string, sendInitialEvents: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (sendInitialEvents) {
    if (match !== "NotOlderThan")
      errs.push(
        forbiddenValue(
          "resourceVersionMatch",
          "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        ),
      );
    errs.push(
      forbiddenValue(
        "sendInitialEvents",
        "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
      ),
    );
  }
  if (match !== "") {
    if (!sendInitialEvents)
      errs.push(
        forbiddenValue(
          "resourceVersionMatch",
          "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
        ),
      );
    if (match !== "NotOlderThan")
      errs.push(notSupported("resourceVersionMatch", match, ["NotOlderThan"]));
    if (cont !== "")
      errs.push(
        forbiddenValue(
          "resourceVersionMatch",
          "resourceVersionMatch is forbidden when continue is provided",
        ),
      );
  }
  return errs;
}

function notSupported(field: string, value: string, supported: string[]): FieldError {
  return {
    reason: "FieldValueNotSupported",
    field,
    detail: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}`,
  };
}
