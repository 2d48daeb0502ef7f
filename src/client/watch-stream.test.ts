/** Watch body decoding: lines split across chunks, several per chunk, ERROR events. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { WatchEvent } from "../api/index.js";
import { ApiError } from "../api/index.js";
import { decodeWatchEvents, splitLines } from "./watch-stream.js";

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const part of parts) yield part;
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

const event = (type: string, name: string) =>
  JSON.stringify({ type, object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name } } });

describe("splitLines", () => {
  it("joins lines split across chunks and splits several in one chunk", async () => {
    const lines = await collect(splitLines(chunks("ab", "c\nde", "f\ng\nh", "", "\n", "tail")));
    assert.deepEqual(lines, ["abc", "def", "g", "h", "tail"]);
  });

  it("decodes a UTF-8 character split between byte chunks", async () => {
    const bytes = new TextEncoder().encode("é€\n");
    const parts = [bytes.slice(0, 1), bytes.slice(1, 3), bytes.slice(3)];
    assert.deepEqual(await collect(splitLines(chunks(...parts))), ["é€"]);
  });
});

describe("decodeWatchEvents", () => {
  it("yields every event in order however the stream is chunked", async () => {
    const text = `${event("ADDED", "a")}\n${event("MODIFIED", "b")}\n\n${event("DELETED", "c")}\n`;
    for (const size of [1, 7, 50, text.length]) {
      const parts: string[] = [];
      for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
      const events = await collect(decodeWatchEvents<WatchEvent["object"]>(chunks(...parts)));
      assert.deepEqual(
        events.map((e) => [e.type, e.object.metadata.name]),
        [
          ["ADDED", "a"],
          ["MODIFIED", "b"],
          ["DELETED", "c"],
        ],
      );
    }
  });

  it("passes bookmarks through", async () => {
    const line = JSON.stringify({
      type: "BOOKMARK",
      object: { kind: "ConfigMap", apiVersion: "v1", metadata: { resourceVersion: "42" } },
    });
    const [bookmark] = await collect(decodeWatchEvents(chunks(line)));
    assert.equal(bookmark?.type, "BOOKMARK");
  });

  it("throws an ERROR event's Status as its ApiError after the events before it", async () => {
    const expired = {
      type: "ERROR",
      object: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: "too old resource version: 1 (5)",
        reason: "Expired",
        code: 410,
      },
    };
    const seen: string[] = [];
    const run = async () => {
      for await (const e of decodeWatchEvents(
        chunks(`${event("ADDED", "a")}\n`, JSON.stringify(expired)),
      )) {
        seen.push(e.type);
      }
    };
    await assert.rejects(run, (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.code, 410);
      assert.equal(e.reason, "Expired");
      assert.equal(e.message, "too old resource version: 1 (5)");
      return true;
    });
    assert.deepEqual(seen, ["ADDED"]);
  });

  it("rejects ERROR events without a Status and lines that are not events", async () => {
    const noStatus = JSON.stringify({ type: "ERROR", object: { oops: true } });
    await assert.rejects(collect(decodeWatchEvents(chunks(noStatus))), { code: 500 });
    await assert.rejects(collect(decodeWatchEvents(chunks("not json\n"))), {
      message: /cannot decode watch event: not JSON/,
    });
    await assert.rejects(collect(decodeWatchEvents(chunks('{"type":"WHAT","object":{}}'))), {
      message: /cannot decode watch event/,
    });
  });
});
