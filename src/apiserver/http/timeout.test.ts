import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { RequestInfo } from "./request-info.js";
import { sendJson } from "./respond.js";
import { isLongRunning, requestDeadlineMs, timeoutError, withDeadline } from "./timeout.js";

const info = (verb: string, subresource?: string): RequestInfo => ({
  isResourceRequest: true,
  path: "/api/v1/namespaces/default/pods/p",
  verb,
  group: "",
  version: "v1",
  namespace: "default",
  resource: "pods",
  name: "p",
  ...(subresource ? { subresource } : {}),
});

describe("request deadline", () => {
  it("takes `timeout` as a Go duration, clamped to the server's maximum", () => {
    const q = (s: string) => new URLSearchParams(s);
    assert.equal(requestDeadlineMs(info("get"), q(""), 60_000), 60_000);
    assert.equal(requestDeadlineMs(info("get"), q("timeout="), 60_000), 60_000);
    assert.equal(requestDeadlineMs(info("get"), q("timeout=20s"), 60_000), 20_000);
    assert.equal(requestDeadlineMs(info("get"), q("timeout=1.5s"), 60_000), 1_500);
    assert.equal(requestDeadlineMs(undefined, q("timeout=300ms"), 60_000), 300);
    // kube: zero or negative means "no timeout of the user's", and longer is clamped.
    assert.equal(requestDeadlineMs(info("get"), q("timeout=0s"), 60_000), 60_000);
    assert.equal(requestDeadlineMs(info("get"), q("timeout=-1s"), 60_000), 60_000);
    assert.equal(requestDeadlineMs(info("get"), q("timeout=2h"), 60_000), 60_000);
  });

  it("refuses a `timeout` that does not parse with kube's 400", () => {
    assert.throws(
      () => requestDeadlineMs(info("list"), new URLSearchParams("timeout=abc"), 60_000),
      (e: unknown) =>
        e instanceof Error &&
        (e as { code?: number }).code === 400 &&
        e.message === 'invalid timeout specified in the request URL - time: invalid duration "abc"',
    );
  });

  it("leaves long-running requests alone: watch, log, exec, proxy", () => {
    const q = new URLSearchParams("timeout=abc");
    for (const i of [info("watch"), info("get", "log"), info("get", "exec"), info("proxy")]) {
      assert.ok(isLongRunning(i));
      assert.equal(requestDeadlineMs(i, q, 60_000), undefined);
    }
    assert.ok(!isLongRunning(info("get", "status")));
  });

  it("words the 504 as kube: the finisher's for writes, the filter's for reads", () => {
    assert.equal(
      timeoutError("POST", info("create")).message,
      "Timeout: request did not complete within requested timeout - context deadline exceeded",
    );
    const read = timeoutError("GET", info("get")).toStatus();
    assert.equal(read.code, 504);
    assert.equal(read.reason, "Timeout");
    assert.equal(
      read.message,
      "the server was unable to return a response in the time allotted, but may still be processing the request (get pods)",
    );
  });
});

describe("withDeadline", () => {
  let server: Server;
  let base: string;
  let release: () => void = () => {};
  const late: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const ms = Number(new URL(req.url ?? "/", "http://x").searchParams.get("ms"));
      void withDeadline(
        res,
        100,
        () => timeoutError("GET", info("get")),
        async () => {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, ms);
            release = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          // A handler that finishes after its deadline writes into nothing.
          sendJson(res, 200, { done: true });
          late.push(req.url ?? "");
        },
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    release();
    return new Promise<void>((r) => server.close(() => r()));
  });

  it("answers what the handler answers when it finishes in time", async () => {
    const res = await fetch(`${base}/?ms=0`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { done: true });
  });

  it("answers a 504 Timeout Status at the deadline, and drops the late answer", async () => {
    const res = await fetch(`${base}/?ms=60000`);
    assert.equal(res.status, 504);
    const status = (await res.json()) as { reason: string; kind: string };
    assert.equal(status.kind, "Status");
    assert.equal(status.reason, "Timeout");
    release();
    // The same keep-alive connection still serves the next request.
    assert.equal((await fetch(`${base}/?ms=0`)).status, 200);
    assert.ok(late.includes("/?ms=60000"), "the late handler ran to its end without throwing");
  });
});
