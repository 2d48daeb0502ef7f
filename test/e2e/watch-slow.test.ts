/**
 * A watcher that stops reading is cut off once MAX_PENDING (10,000) events wait
 * for it (src/apiserver/handlers/watch.ts), so one stuck client cannot grow the
 * server's memory without bound; the server stays healthy, a reading watcher
 * of the same kind receives every event, and the cut-off watcher resumes from
 * the last revision it received without a gap.
 */
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

/**
 * Events of ~4 KiB: more than the socket buffers (a few MiB) hold plus the
 * 10,000 that may wait, and fewer than 10,000 past the cut, so the resumed watch
 * replays the rest in one burst under the limit (a longer replay is cut off
 * too: the burst is written before the socket can drain).
 */
const EVENTS = 16_000;
const PAD = "x".repeat(4000);

interface Watch {
  res: IncomingMessage;
  /** The resourceVersions of the events read so far. */
  revisions: number[];
  ended: Promise<void>;
  /** Resolves once `count` events were read; rejects after `ms`. */
  read(count: number, ms?: number): Promise<void>;
}

/** `promise`, or a rejection naming `what` after `ms`. */
async function within<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function openWatch(url: string, query: string, reading: boolean): Promise<Watch> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/namespaces/default/configmaps?watch=1&${query}`);
    req.on("error", reject);
    req.on("response", (res) => {
      const revisions: number[] = [];
      const waiting = new Set<{ count: number; done: () => void }>();
      let partial = "";
      const ended = new Promise<void>((r) => {
        res.on("end", r);
        res.on("close", r);
        res.on("error", () => r());
      });
      res.on("data", (chunk: Buffer) => {
        const lines = (partial + chunk.toString()).split("\n");
        partial = lines.pop()!;
        for (const l of lines)
          if (l) revisions.push(Number(JSON.parse(l).object.metadata.resourceVersion));
        for (const w of waiting) if (revisions.length >= w.count) w.done();
      });
      const read = (count: number, ms = 20_000) =>
        within(
          `${count} events read`,
          new Promise<void>((done) => {
            if (revisions.length >= count) return done();
            const w = {
              count,
              done: () => {
                waiting.delete(w);
                done();
              },
            };
            waiting.add(w);
          }),
          ms,
        );
      // Not reading: Node stops reading the socket once its buffer is full.
      if (!reading) res.pause();
      resolve({ res, revisions, ended, read });
    });
    req.end();
  });
}

describe("a slow watcher", () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess();
  });
  after(async () => {
    await s?.stop();
  });

  it("is disconnected past the pending-event limit while the server and other watchers carry on", async () => {
    const from = await s.backend.currentRevision();
    const slow = await openWatch(s.url, `resourceVersion=${from}`, false);
    const reader = await openWatch(s.url, `resourceVersion=${from}`, true);
    try {
      // Written to storage directly: the watch serves what storage reports, and
      // 16,000 API round-trips would only make the test slow.
      for (let i = 0; i < EVENTS; i++) {
        // The reader shares this process: let it keep up, as a client of its own would.
        if (i % 500 === 0) await reader.read(i - 500);
        const name = `slow-${i}`;
        await s.backend.create(
          `/registry/core/configmaps/default/${name}`,
          JSON.stringify({
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name, namespace: "default", uid: `uid-${i}` },
            data: { pad: PAD },
          }),
        );
      }
      const last = await s.backend.currentRevision();
      await reader.read(EVENTS);
      assert.equal(reader.revisions.at(-1), last);
      assert.equal(await s.health(), 200, "the server stays healthy");

      // Reading again drains what was buffered; the stream then ends, short of the end.
      slow.res.resume();
      await within("the server ends the slow watch", slow.ended, 30_000);
      const got = slow.revisions.length;
      assert.ok(got > 0 && got < EVENTS, `the slow watcher got ${got} of ${EVENTS} events`);
      assert.deepEqual(
        slow.revisions,
        reader.revisions.slice(0, got),
        "what it got came in order, without a gap",
      );

      // It resumes from the last revision it saw and receives the rest.
      const resumed = await openWatch(s.url, `resourceVersion=${slow.revisions.at(-1)}`, true);
      try {
        await resumed.read(EVENTS - got);
        assert.equal(resumed.revisions.at(-1), last);
        assert.equal(got + resumed.revisions.length, EVENTS);
      } finally {
        resumed.res.destroy();
      }
    } finally {
      slow.res.destroy();
      reader.res.destroy();
    }
  });
});
