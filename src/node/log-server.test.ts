import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { waitFor } from "../../test/support/hearth-process.js";
import { LogServer } from "./log-server.js";
import { type Measurement, NodeStats } from "./stats/index.js";

const TOKEN = "log-token";

interface Reply {
  status: number;
  text: string;
  ended: boolean;
}

/** GETs `path`; the reply fills in as the body streams. */
function get(port: number, path: string, token = TOKEN): { reply: Reply; done: Promise<Reply> } {
  const reply: Reply = { status: 0, text: "", ended: false };
  const done = new Promise<Reply>((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        reply.status = res.statusCode ?? 0;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          reply.text += chunk;
        });
        res.on("end", () => {
          reply.ended = true;
          resolve(reply);
        });
      },
    );
    req.on("error", reject);
  });
  return { reply, done };
}

describe("log server", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-log-server-"));
  const stop = new AbortController();
  const files: Record<string, { file: string }> = {
    cri: { file: join(dir, "cri.log") },
  };
  let runDone = false;
  let port = 0;
  before(async () => {
    const server = new LogServer(
      (_ns, pod) => {
        const target = files[pod];
        return target
          ? { ok: true, ...target, done: () => runDone }
          : { ok: false, code: 404, message: `pod "${pod}" not found` };
      },
      TOKEN,
      { followPollMs: 10 },
    );
    port = await server.start(stop.signal);
  });
  after(() => {
    stop.abort();
    rmSync(dir, { recursive: true, force: true });
  });

  const CRI =
    "2025-01-01T00:00:01Z stdout P hel\n" +
    "2025-01-01T00:00:02Z stderr F oops\n" +
    "2025-01-01T00:00:03Z stdout F lo\n";

  it("reads a log in the CRI format: its lines, their times, since a time", async () => {
    writeFileSync(files.cri!.file, CRI);
    const cri = await get(port, "/containerLogs/ns/cri/c").done;
    assert.deepEqual([cri.status, cri.text], [200, "oops\nhello\n"]);
    const stamped = await get(port, "/containerLogs/ns/cri/c?timestamps=true&tailLines=1").done;
    assert.equal(stamped.text, "2025-01-01T00:00:01.000000000Z hello\n");
    const since = await get(port, "/containerLogs/ns/cri/c?sinceTime=2025-01-01T00:00:02Z").done;
    assert.equal(since.text, "oops\n");
  });

  it("keeps its answers to bad requests", async () => {
    const missing = await get(port, "/containerLogs/ns/nope/c").done;
    assert.equal(missing.status, 404);
    assert.match(missing.text, /pod \\"nope\\" not found/);
    const bad = await get(port, "/containerLogs/ns/cri/c?sinceTime=yesterday").done;
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.text).reason, "BadRequest");
    assert.match(bad.text, /sinceTime/);
  });

  it("follows a CRI log, holding an unfinished line back until it ends or the run does", async () => {
    writeFileSync(files.cri!.file, `${CRI}2025-01-01T00:00:04Z stdout P wor`);
    runDone = false;
    const { reply, done } = get(port, "/containerLogs/ns/cri/c?follow=true");
    await waitFor("the first read", () => reply.text === "oops\nhello\n");
    // stdout's line is still open when stderr's next line is served.
    appendFileSync(files.cri!.file, "ld\n2025-01-01T00:00:05Z stderr F mid\n");
    await waitFor("stderr's line", () => reply.text.includes("mid"));
    assert.equal(reply.text, "oops\nhello\nmid\n");
    appendFileSync(files.cri!.file, "2025-01-01T00:00:06Z stdout F !\n");
    await waitFor("stdout's line, finished", () => reply.text.endsWith("world!\n"));
    appendFileSync(files.cri!.file, "2025-01-01T00:00:07Z stderr P to be cut");
    runDone = true;
    const end = await done;
    assert.equal(end.text, "oops\nhello\nmid\nworld!\nto be cut", "the run is over: read as it is");
  });
});

describe("log server: resource usage", () => {
  const stop = new AbortController();
  const S = 1e9;
  let reads = 0;
  let failing = false;
  let port = 0;
  /** A fake measurement: one pod whose container burns one core, read one second apart. */
  const measure = async (): Promise<Measurement> => {
    if (failing) throw new Error("the runtime does not answer");
    const at = (1_800_000_000 + reads++) * S;
    const cpu = { timeNs: at, usageCoreNanoSeconds: reads * S };
    const memory = { timeNs: at, workingSetBytes: 2 << 20 };
    return {
      node: { startTimeNs: 0, cpu, memory: { ...memory, availableBytes: 1 } },
      pods: [
        {
          ref: { name: "burn", namespace: "default", uid: "u1" },
          startTimeNs: at - 60 * S,
          usage: {
            uid: "u1",
            containers: [{ name: "c", id: "id1", startTimeNs: at, cpu, memory }],
          },
        },
      ],
    };
  };
  before(async () => {
    const stats = new NodeStats("n1", measure);
    port = await new LogServer(() => ({ ok: false, code: 404, message: "no" }), TOKEN, {
      stats,
    }).start(stop.signal);
  });
  after(() => stop.abort());

  it("wants the token", async () => {
    for (const path of ["/stats/summary", "/metrics/resource"]) {
      const r = await get(port, path, "wrong").done;
      assert.equal(r.status, 401);
      assert.equal(JSON.parse(r.text).reason, "Unauthorized");
    }
  });

  it("serves the summary, with rates from the second read on, and the resource metrics", async () => {
    const first = JSON.parse((await get(port, "/stats/summary").done).text);
    assert.equal(first.pods[0].containers[0].cpu.usageNanoCores, undefined);
    const second = JSON.parse((await get(port, "/stats/summary").done).text);
    assert.equal(second.node.nodeName, "n1");
    assert.equal(second.pods[0].podRef.name, "burn");
    assert.equal(second.pods[0].containers[0].cpu.usageNanoCores, 1e9);
    assert.equal(second.pods[0].memory.workingSetBytes, 2 << 20);
    const metrics = await get(port, "/metrics/resource").done;
    assert.equal(metrics.status, 200);
    assert.match(
      metrics.text,
      /^container_cpu_usage_seconds_total\{container="c",namespace="default",pod="burn"\} 3 \d+$/m,
    );
    assert.match(metrics.text, /^resource_scrape_error 0$/m);
  });

  it("a failed read: the summary is a 500 Status, the metrics a scrape error", async () => {
    failing = true;
    try {
      const summary = await get(port, "/stats/summary").done;
      assert.equal(summary.status, 500);
      const status = JSON.parse(summary.text);
      assert.equal(status.kind, "Status");
      assert.match(
        status.message,
        /cannot read the node's resource usage: the runtime does not answer/,
      );
      const metrics = await get(port, "/metrics/resource").done;
      assert.equal(metrics.status, 200);
      assert.match(metrics.text, /^resource_scrape_error 1$/m);
    } finally {
      failing = false;
    }
  });

  it("other paths and methods stay 404", async () => {
    assert.equal((await get(port, "/stats/summary/extra").done).status, 404);
    assert.equal((await get(port, "/metrics").done).status, 404);
  });
});
