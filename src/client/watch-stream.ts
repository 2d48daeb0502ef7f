/**
 * Decodes a watch response body: one JSON event per line, with lines split
 * across chunks or several in one chunk. An `ERROR` event ends the stream by
 * throwing the ApiError its Status describes (410 Expired → the caller relists).
 */
import { ApiError, isObject, type WatchEvent, type WatchEventType } from "../api/index.js";
import { isStatus } from "./interface.js";
import { errorFromStatus } from "./response.js";

const EVENT_TYPES: ReadonlySet<string> = new Set<WatchEventType>([
  "ADDED",
  "MODIFIED",
  "DELETED",
  "BOOKMARK",
  "ERROR",
]);

/** Splits a byte or text stream into lines, decoding UTF-8 across chunk edges. */
export async function* splitLines(
  source: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of source) {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      yield pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
    }
  }
  pending += decoder.decode();
  if (pending !== "") yield pending;
}

/** Parses one watch line; throws the server's error for an `ERROR` event. */
export function parseWatchEvent<T>(line: string): WatchEvent<T> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (cause) {
    throw new ApiError(
      500,
      "InternalError",
      `cannot decode watch event: not JSON: ${line.slice(0, 200)}`,
      {},
      { cause },
    );
  }
  if (!isObject(value) || typeof value.type !== "string" || !EVENT_TYPES.has(value.type)) {
    throw new ApiError(500, "InternalError", `cannot decode watch event: ${line.slice(0, 200)}`);
  }
  if (value.type === "ERROR") {
    if (isStatus(value.object)) throw errorFromStatus(value.object, 500);
    throw new ApiError(500, "InternalError", `watch failed: ${JSON.stringify(value.object)}`);
  }
  return value as unknown as WatchEvent<T>;
}

export async function* decodeWatchEvents<T>(
  source: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<WatchEvent<T>> {
  for await (const line of splitLines(source)) {
    if (line.trim() === "") continue;
    yield parseWatchEvent<T>(line);
  }
}
